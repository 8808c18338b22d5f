/**
 * The tiny media files the "everything" server serves: the same 1×1 PNG and minimal WAV as the
 * MCP reference server, so clients can check they decode.
 *
 * @module
 */

/** A 1×1 PNG (70 bytes), base64. */
export const PNG_BASE64: string =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A minimal WAV file (44 bytes), base64. */
export const WAV_BASE64: string = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

function decode(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** The PNG's bytes. */
export const PNG_BYTES: Uint8Array = decode(PNG_BASE64);

/** The WAV's bytes. */
export const WAV_BYTES: Uint8Array = decode(WAV_BASE64);

/**
 * The shape of an embedded console file.
 *
 * @module
 */

/** One embedded file: its content type, strong ETag and text. */
export interface ConsoleAsset {
  /** `Content-Type` header value. */
  type: string;
  /** Strong ETag (quoted), from the SHA-256 of the body. */
  etag: string;
  /** The file's text. */
  body: string;
}

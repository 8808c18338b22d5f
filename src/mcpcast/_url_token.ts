/**
 * Checks for the base URLs a plan records (`api.base_url`, a route's `base_url`). A base URL is copied
 * into generated files, the README and the server's instructions, and route paths are appended to
 * it, so it must be one clean token: absolute http(s), no credentials, no query or fragment, no
 * whitespace. No message repeats the value: a credential refusal names the host only, a whitespace
 * refusal the character's code point and offset.
 *
 * @module
 */

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Whether `char` breaks a token: whitespace, a C0 control, DEL or a C1 control. */
function breaksToken(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code <= 0x20 || (code >= 0x7f && code <= 0x9f) || /\s/.test(char);
}

/**
 * The first whitespace or control character of `text` and its offset, or undefined when there is
 * none.
 */
export function firstTokenBreak(text: string): { char: string; offset: number } | undefined {
  for (let offset = 0; offset < text.length; offset++) {
    if (breaksToken(text[offset])) return { char: text[offset], offset };
  }
  return undefined;
}

/** `value` without surrounding whitespace and trailing slashes: the form a plan stores. */
export function cleanUrlToken(value: string): string {
  return value.trim().replace(/\/+$/, "");
}

/**
 * The authority (`user:pw@host:port`) of `value`, read leniently: an optional scheme and any run of
 * slashes are skipped, so `user:pw@host/v1` (no scheme) is caught as well.
 */
function authority(value: string): string {
  const rest = value.replace(SCHEME, "").replace(/^\/+/, "");
  return rest.split(/[/?#]/, 1)[0];
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Options of {@linkcode urlTokenProblem}. */
export interface UrlTokenOptions {
  /** What the value is called in messages (`base_url`, `route base_url`). */
  label: string;
  /** Added to the message when the value is empty or not absolute. */
  relativeHint?: string;
}

/**
 * Why `value` (already {@linkcode cleanUrlToken cleaned}) is not a clean absolute http(s) URL token,
 * or undefined when it is.
 *
 * @example
 * ```ts
 * import { urlTokenProblem } from "./_url_token.ts";
 * urlTokenProblem("https://user:pw@api.example.com", { label: "base_url" });
 * // "base_url must not carry credentials (user:password@ before host 'api.example.com'); ..."
 * ```
 */
export function urlTokenProblem(value: string, options: UrlTokenOptions): string | undefined {
  const { label } = options;
  const hint = options.relativeHint === undefined ? "" : `; ${options.relativeHint}`;
  if (value === "") return `${label} is empty${hint}`;
  const auth = authority(value);
  const at = auth.lastIndexOf("@");
  if (at >= 0) {
    const host = [...auth.slice(at + 1)].map((char) => breaksToken(char) ? "?" : char).join("");
    return `${label} must not carry credentials (user:password@ before host '${host}'): the generated ` +
      "server never stores an upstream credential in its files; use --auth env-token and set " +
      "MCPCAST_UPSTREAM_TOKEN instead";
  }
  const breaker = firstTokenBreak(value);
  if (breaker !== undefined) {
    return `${label} contains whitespace or a control character (${codePoint(breaker.char)} at offset ` +
      `${breaker.offset})`;
  }
  if (/[?#]/.test(value)) {
    return `${label} must not carry a query string or fragment: route paths are appended to it; pass ` +
      "query parameters as tool arguments, or a credential via --auth env-token";
  }
  if (!/^https?:\/\//i.test(value)) return `${label} must be an absolute http:// or https:// URL${hint}`;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return `${label} is not a valid URL`;
  }
  if (parsed.hostname === "") return `${label} has no host`;
  return undefined;
}

/**
 * An upstream answer as a tool result: the body read under a byte cap (declared length and streamed
 * count), the credential redacted before anything else looks at it, then JSON parsed, text returned
 * as text, or an HTTP error mapped to `UPSTREAM_ERROR`.
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import { scrubText } from "../_scrub.ts";
import { type Credential, redactCredential } from "./credential.ts";
import { readStreamLimited } from "../../_util/read_body.ts";

/** What the result mapping needs to know about the call. */
export interface ResponseInfo {
  /** HTTP method, for messages. */
  method: string;
  /** The route's path template, for messages (never the filled-in path). */
  path: string;
  /** Largest body accepted, in bytes. */
  limit: number;
  /** Characters of an error body quoted in the message (0 quotes none). */
  excerptChars: number;
  /** The credentials sent, redacted from everything returned. */
  credential?: Credential | readonly Credential[];
}

/** Statuses worth retrying besides 5xx: request timeout, too early, too many requests. */
const RETRYABLE = new Set([408, 425, 429]);

function tooLarge(status: number, limit: number): ToolError {
  return new ToolError("UPSTREAM_RESPONSE_TOO_LARGE", `The upstream answer is larger than ${limit} bytes`, {
    suggestion: "Ask for less (filters, a smaller page), or raise MCPCAST_MAX_RESPONSE_BYTES",
    details: { status, limit },
  });
}

/**
 * The body of `response`, refusing more than `limit` bytes: a declared Content-Length over the limit
 * is refused before reading, any other body is counted as it streams.
 *
 * @throws {ToolError} `UPSTREAM_RESPONSE_TOO_LARGE` with `details.status` and `details.limit`.
 */
export async function readLimitedBody(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(response.status, limit);
  }
  if (response.body === null) return new Uint8Array(0);
  const body = await readStreamLimited(response.body.getReader(), limit);
  if (body === 413) throw tooLarge(response.status, limit);
  return body;
}

/** Seconds from a `Retry-After` header (delta seconds or an HTTP date), when it says something usable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The start of an error body for a message: one line, controls removed, cut to `chars`. */
function excerpt(text: string, chars: number): string {
  if (chars <= 0) return "";
  const line = scrubText(text).replace(/\s+/g, " ").trim();
  return line.length > chars ? `${line.slice(0, chars)}…` : line;
}

function httpError(response: Response, text: string, info: ResponseInfo): ToolError {
  const status = response.status;
  const quoted = excerpt(text, info.excerptChars);
  const retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
  const details: Record<string, unknown> = { status };
  if (retryAfter !== undefined) details.retry_after_seconds = retryAfter;
  let suggestion: string | undefined;
  if (status === 401 || status === 403) suggestion = "Check the upstream credential and its permissions";
  else if (status === 429 || retryAfter !== undefined) {
    suggestion = retryAfter === undefined
      ? "Wait before retrying"
      : `Wait ${retryAfter} seconds before retrying`;
  } else if (status === 404) suggestion = "Check the identifiers in the arguments";
  return new ToolError(
    "UPSTREAM_ERROR",
    `${info.method} ${info.path} returned HTTP ${status}${quoted === "" ? "" : `: ${quoted}`}`,
    { retryable: status >= 500 || RETRYABLE.has(status), suggestion, details },
  );
}

/**
 * The tool result for an upstream answer: `{status}` for an empty body, the parsed value for a JSON
 * content type, the text otherwise; the credential is redacted first.
 *
 * @throws {ToolError} `UPSTREAM_ERROR` for status 400 and above (retryable for 5xx, 408, 425, 429;
 * `details.status`, `details.retry_after_seconds`) and for JSON that does not parse.
 */
export function responseResult(response: Response, bytes: Uint8Array, info: ResponseInfo): unknown {
  const text = redactCredential(new TextDecoder().decode(bytes), info.credential);
  if (response.status >= 400) throw httpError(response, text, info);
  if (text.trim() === "") return { status: response.status };
  const type = response.headers.get("content-type")?.toLowerCase() ?? "";
  if (!type.includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new ToolError("UPSTREAM_ERROR", `${info.method} ${info.path} returned JSON that does not parse`, {
      details: { status: response.status },
    });
  }
}

/**
 * Small HTTP helpers shared by the MCP HTTP routes: JSON answers, JSON-RPC error answers, media-type
 * checks and a size-limited body reader.
 *
 * @module
 */

import { readLimitedBody } from "../../_util/read_body.ts";

/** Largest MCP message body accepted (4 MiB), as in the SDK's streamable HTTP transport. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A JSON answer with `status`. */
export function json(status: number, body: unknown, headers: HeadersInit = {}): Response {
  const all = new Headers(headers);
  all.set("content-type", "application/json");
  return new Response(JSON.stringify(body), { status, headers: all });
}

/** A JSON-RPC error answer without a request id. */
export function rpcError(status: number, code: number, message: string, headers: HeadersInit = {}): Response {
  return json(status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

/** The 404 answer for an unknown (or someone else's) session id. */
export function sessionNotFound(): Response {
  return rpcError(404, -32001, "Session not found");
}

/** Whether a Content-Type header names `application/json` (parameters such as charset allowed). */
export function isJsonType(contentType: string | null): boolean {
  if (contentType === null) return false;
  return contentType.split(";")[0].trim().toLowerCase() === "application/json";
}

/** Milliseconds a client may take to send a request body. */
export const BODY_TIMEOUT_MS = 30_000;

/** JSON-RPC error answers for body problems. */
export function bodyProblem(status: 400 | 408 | 413): Response {
  if (status === 400) return rpcError(400, -32700, "Parse error: Invalid JSON");
  return rpcError(status, -32000, status === 413 ? "Payload too large" : "Request body not received in time");
}

/** The body parsed as JSON, or the status to answer (400 broken or not JSON, 408 too slow, 413 too large). */
export async function readJson(
  request: Request,
  limit: number,
): Promise<{ value: unknown } | 400 | 408 | 413> {
  const body = await readLimitedBody(request, limit, BODY_TIMEOUT_MS);
  if (typeof body === "number") return body;
  try {
    return { value: JSON.parse(new TextDecoder().decode(body)) };
  } catch {
    return 400;
  }
}

/** Headers as a plain record (lower-case names), for `requestInfo.headers`. */
export function headerRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}

/** The path of an absolute request URL, without building a `URL` (requests always carry one). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 63 || code === 35) {
      end = i;
      break;
    }
  }
  return url.slice(start, end);
}

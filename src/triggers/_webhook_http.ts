/**
 * The webhook trigger's HTTP pieces: reading a body until the trigger stops, the fixed JSON answers, and
 * splitting request URLs cheaply.
 *
 * @module
 */

import { readLimitedBody } from "../_util/read_body.ts";
import type { SignatureCheck } from "./webhook_signature.ts";

/** Options for {@linkcode readBodyUntil}. */
export interface ReadBodyOptions {
  /** Aborted when the trigger stops: the read ends with `stopped`. */
  stop: AbortSignal;
  /** Largest body, in bytes (413 over it). */
  limit: number;
  /** Longest time to receive it (408 after it). */
  timeoutMs: number;
}

/** The body, or the status to answer (400, 408, 413), or `stopped` when `stop` aborts first. */
export async function readBodyUntil(
  request: Request,
  options: ReadBodyOptions,
): Promise<Uint8Array | 400 | 408 | 413 | "stopped"> {
  const { stop } = options;
  if (stop.aborted) return "stopped";
  const stopped = Promise.withResolvers<"stopped">();
  const onStop = () => stopped.resolve("stopped");
  stop.addEventListener("abort", onStop, { once: true });
  try {
    return await Promise.race([readLimitedBody(request, options.limit, options.timeoutMs), stopped.promise]);
  } finally {
    stop.removeEventListener("abort", onStop);
  }
}

const BODY_ERRORS: Record<400 | 408 | 413, string> = {
  400: "request body could not be read",
  408: "request body timeout",
  413: "payload too large",
};

/** The answer to a body that could not be read. */
export function bodyRefusal(status: 400 | 408 | 413): Response {
  return json(status, { status: "error", message: BODY_ERRORS[status] });
}

/** Answers to failed signature checks. */
const SIGNATURE_REFUSALS: Record<Exclude<SignatureCheck, "ok">, [number, string]> = {
  invalid: [401, "invalid signature"],
  no_timestamp: [401, "missing or invalid timestamp"],
  stale: [401, "timestamp outside the tolerance window"],
  replayed: [409, "signature already used"],
  busy: [503, "too many signed requests in the tolerance window"],
};

/** The answer to a failed signature check (503 `busy` with `Retry-After: 1`). */
export function signatureRefusal(check: Exclude<SignatureCheck, "ok">): Response {
  const [status, message] = SIGNATURE_REFUSALS[check];
  return json(status, { status: "error", message }, status === 503 ? { "retry-after": "1" } : {});
}

/** The answer to an event the queue had no room for (`full`) or that could not be recorded. */
export function admitRefusal(outcome: "full" | "unrecorded"): Response {
  const message = outcome === "full" ? "queue full" : "event could not be recorded";
  return json(503, { status: "error", message }, { "retry-after": "1" });
}

/** Init of 202 answers (the body is built as a string: the event id is a UUID, safe in JSON as is). */
const ACCEPTED: ResponseInit = { status: 202, headers: { "content-type": "application/json" } };

/** 202 `{status: "accepted", event_id}`. */
export function accepted(eventId: string): Response {
  return new Response(`{"status":"accepted","event_id":"${eventId}"}`, ACCEPTED);
}

/** A JSON answer. */
export function json(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return Response.json(body, { status, headers });
}

/** 503 `unavailable` with `Retry-After: 30` (stopping, failed, or refused by `accepting`). */
export function unavailable(message: string): Response {
  return json(503, { status: "unavailable", message }, { "retry-after": "30" });
}

/** 405 with `Allow`. */
export function notAllowed(allow: string): Response {
  return json(405, { status: "error", message: `method not allowed; use ${allow}` }, { allow });
}

/** Path and query (without `?`) of a request URL. */
export interface SplitUrl {
  /** The path. */
  pathname: string;
  /** The query without `?`, or "". */
  search: string;
}

/** Path and query of an absolute request URL, without building a URL object (a hot path). */
export function splitUrl(href: string): SplitUrl {
  const start = href.indexOf("/", href.indexOf("//") + 2);
  if (start === -1) return { pathname: "/", search: "" };
  const hash = href.indexOf("#", start);
  const end = hash === -1 ? href.length : hash;
  const query = href.indexOf("?", start);
  if (query === -1 || query > end) return { pathname: href.slice(start, end), search: "" };
  return { pathname: href.slice(start, query), search: href.slice(query + 1, end) };
}

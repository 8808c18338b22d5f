/**
 * The client's one fetch: a request that gets no answer (nothing listening, a host name that does not
 * resolve, no answer in time) becomes a {@linkcode RuntimeApiError} that says which server and why,
 * instead of `TypeError: fetch failed`. The original error stays as `cause`.
 *
 * @module
 */

import { RuntimeApiError } from "./client_error.ts";

/** Options of {@linkcode fetchApi}. */
export interface FetchApiOptions {
  /** The request, without its signal. */
  init: RequestInit;
  /** Aborts the request (the client's close, a caller's signal); an abort through it is rethrown as is. */
  signal: AbortSignal;
  /** Seconds before the request is abandoned. @default no limit */
  timeoutSeconds?: number;
}

const HINT = "is agentry runtime start running there?";

/** Why nothing answered, in words, from what Deno tells apart. */
function reasonOf(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const text = `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`.toLowerCase();
  if (text.includes("connection refused")) return "connection refused";
  if (text.includes("dns error") || text.includes("failed to lookup")) {
    return "the host name does not resolve";
  }
  if (text.includes("connection reset")) return "connection reset";
  if (text.includes("are blocked")) return "requests to this port are blocked";
  return text.includes("fetch failed") ? "network error" : undefined;
}

/**
 * `fetchFn(url, init)`, rejecting with RuntimeApiError UNREACHABLE (`no answer from
 * http://127.0.0.1:9100 (connection refused): is agentry runtime start running there?`) or TIMEOUT when
 * no answer came; `statusCode` is 0 for both.
 */
export async function fetchApi(
  fetchFn: typeof fetch,
  url: string,
  options: FetchApiOptions,
): Promise<Response> {
  const { init, signal, timeoutSeconds } = options;
  const signals = [signal];
  if (timeoutSeconds !== undefined) signals.push(AbortSignal.timeout(timeoutSeconds * 1000));
  try {
    return await fetchFn(url, { ...init, signal: AbortSignal.any(signals) });
  } catch (error) {
    if (signal.aborted) throw error;
    const origin = new URL(url).origin;
    if (error instanceof DOMException && error.name === "TimeoutError") {
      const message = `no answer from ${origin} within ${timeoutSeconds} s (the client's timeout): ${HINT}`;
      throw new RuntimeApiError(0, { code: "TIMEOUT", message, errorId: null, cause: error });
    }
    const reason = reasonOf(error);
    if (reason === undefined) throw error;
    const message = `no answer from ${origin} (${reason}): ${HINT}`;
    throw new RuntimeApiError(0, { code: "UNREACHABLE", message, errorId: null, cause: error });
  }
}

/**
 * Posting a JSON request to a model API with bounded retries: 429 and 5xx answers and network errors are
 * retried with exponential backoff (`baseDelayMs * 2^(n-1)`, no jitter) or the server's `retry-after-ms` /
 * `retry-after` (seconds or an HTTP date), each wait capped at `maxDelayMs`. Other statuses fail at once.
 *
 * @module
 */

import { ModelError } from "./errors.ts";
import type { ModelAttempt, RetryOptions } from "./types.ts";

/** Retry bounds with their defaults filled in. */
export interface ResolvedRetry {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The first backoff wait in ms. */
  baseDelayMs: number;
  /** The cap of any wait in ms. */
  maxDelayMs: number;
}

/** `options` with the defaults (3 retries, 500 ms base, 20 s cap). */
export function resolveRetry(options: RetryOptions = {}): ResolvedRetry {
  return {
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
    baseDelayMs: Math.max(0, options.baseDelayMs ?? 500),
    maxDelayMs: Math.max(0, options.maxDelayMs ?? 20_000),
  };
}

/** How one JSON POST is sent. */
export interface PostOptions {
  /** The fetch to use. */
  fetch: typeof fetch;
  /** Request headers (content-type is added). */
  headers: Record<string, string>;
  /** The JSON body. */
  body: unknown;
  /** Retry bounds. */
  retry: ResolvedRetry;
  /** Aborts the attempt in flight and any wait. */
  signal?: AbortSignal;
  /** Called before each retry wait. */
  onRetry?: (attempt: ModelAttempt) => void;
}

/** What {@linkcode retryDelay} looks at. */
export interface RetryDelayOptions {
  /** The failed answer's headers (`null` after a network error). */
  headers: Headers | null;
  /** Retry bounds. */
  retry: ResolvedRetry;
}

/** The wait before attempt `failed + 1`: the server's hint when it gives one, else the backoff; capped. */
export function retryDelay(failed: number, options: RetryDelayOptions): number {
  const { headers, retry } = options;
  let delay = retry.baseDelayMs * 2 ** (failed - 1);
  const ms = headers?.get("retry-after-ms");
  const after = headers?.get("retry-after");
  if (ms && Number.isFinite(Number(ms))) delay = Number(ms);
  else if (after) {
    const seconds = Number(after);
    if (after.trim() !== "" && Number.isFinite(seconds)) delay = seconds * 1000;
    else {
      const date = Date.parse(after);
      if (!Number.isNaN(date)) delay = date - Date.now();
    }
  }
  return Math.round(Math.min(Math.max(delay, 0), retry.maxDelayMs));
}

/** The start of a body for logs (at most 500 characters); the body is consumed or cancelled. */
export async function bodyDetail(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < 500) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
    return text.slice(0, 500);
  } catch {
    return text.slice(0, 500);
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** The error for an abort of `signal`. */
export function abortedError(cause?: unknown): ModelError {
  return new ModelError("aborted", "the model request was aborted", { cause });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortedError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * POSTs `options.body` as JSON to `url` until a 2xx answer (returned, body unread) or a final failure
 * (a `ModelError`: "http" with the status, "network" or "aborted").
 */
export async function postWithRetries(url: string, options: PostOptions): Promise<Response> {
  const { retry, signal } = options;
  const init: RequestInit = {
    method: "POST",
    headers: { "content-type": "application/json", ...options.headers },
    body: JSON.stringify(options.body),
    signal,
  };
  for (let attempt = 1;; attempt++) {
    if (signal?.aborted) throw abortedError(signal.reason);
    let failure: ModelError;
    let headers: Headers | null = null;
    try {
      const response = await options.fetch(url, init);
      if (response.ok) return response;
      const detail = await bodyDetail(response);
      failure = new ModelError("http", `the model API answered HTTP ${response.status}`, {
        status: response.status,
        detail,
      });
      if (response.status !== 429 && response.status < 500) throw failure;
      headers = response.headers;
    } catch (error) {
      if (signal?.aborted) throw abortedError(error);
      if (error instanceof ModelError) throw error;
      failure = new ModelError("network", "the model API could not be reached", { cause: error });
    }
    if (attempt > retry.maxRetries) throw failure;
    const delay = retryDelay(attempt, { headers, retry });
    options.onRetry?.({
      attempt,
      status: failure.status,
      delay_ms: delay,
      reason: failure.status === null ? "network" : `http ${failure.status}`,
    });
    await sleep(delay, signal);
  }
}

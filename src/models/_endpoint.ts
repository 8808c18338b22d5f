/**
 * One model API endpoint as the clients use it: its URL, headers, fetch and retry settings, and a POST with
 * bounded retries.
 *
 * @module
 */

import type { HttpClientOptions } from "./client_options.ts";
import { trimBaseUrl } from "./client_options.ts";
import { postWithRetries, type ResolvedRetry, resolveRetry } from "./retry.ts";
import type { ModelRequest } from "./types.ts";

/** An endpoint: `path` below the client's base URL, with `headers` added to the client's own. */
export class Endpoint {
  #url: string;
  #headers: Record<string, string>;
  #fetch: typeof fetch;
  #retry: ResolvedRetry;

  /** The endpoint `path` of `options.baseUrl`, sending `headers` (auth, version) after the client's headers. */
  constructor(options: HttpClientOptions, endpoint: { path: string; headers: Record<string, string> }) {
    this.#url = `${trimBaseUrl(options.baseUrl)}${endpoint.path}`;
    this.#headers = { ...options.headers, ...endpoint.headers };
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#retry = resolveRetry(options.retry);
  }

  /** POSTs `body` as JSON, retrying per the retry settings; resolves the first answer kept. */
  post(body: Record<string, unknown>, request: ModelRequest): Promise<Response> {
    return postWithRetries(this.#url, {
      fetch: this.#fetch,
      headers: this.#headers,
      body,
      retry: this.#retry,
      signal: request.signal,
      onRetry: request.onRetry,
    });
  }
}

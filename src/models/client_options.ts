/**
 * The options every built-in client takes, for library users who build a client (or a provider) of their
 * own on one of the wire formats.
 *
 * @module
 */

import type { RetryOptions } from "./types.ts";

/** Where and how a client talks to its API. */
export interface HttpClientOptions {
  /** The provider name the client reports (e.g. `"groq"`). */
  provider: string;
  /** The model name sent to the API. */
  model: string;
  /** The API base URL, without a trailing path of the endpoint (e.g. `https://api.openai.com/v1`). */
  baseUrl: string;
  /** The API key; no auth header is sent without it. */
  apiKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Retry bounds. */
  retry?: RetryOptions;
}

/** `url` without trailing slashes. */
export function trimBaseUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

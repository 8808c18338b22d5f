/**
 * The three built-in clients, each pointed at a local model server, for tests that run on all of them.
 *
 * @module
 */

import { AnthropicMessagesClient } from "./anthropic_messages.ts";
import { OpenAiChatClient } from "./openai_chat.ts";
import { OpenAiResponsesClient } from "./openai_responses.ts";
import type { ModelServer } from "./testing/mod.ts";
import type { ModelClient, RetryOptions } from "./types.ts";

/** One client kind under test. */
export interface ClientKind {
  /** Its name in test titles. */
  name: string;
  /** The model server API it calls. */
  api: "chat" | "responses" | "anthropic";
  /** A client of `server`. */
  make(server: ModelServer, retry?: RetryOptions): ModelClient;
}

/** Fast retries for tests. */
export const FAST_RETRY: RetryOptions = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 50 };

/** Chat Completions, Responses and Messages clients. */
export const CLIENT_KINDS: ClientKind[] = [
  {
    name: "chat completions",
    api: "chat",
    make: (server, retry = FAST_RETRY) =>
      new OpenAiChatClient({ provider: "test", model: "m1", baseUrl: server.url, apiKey: "k1", retry }),
  },
  {
    name: "responses",
    api: "responses",
    make: (server, retry = FAST_RETRY) =>
      new OpenAiResponsesClient({ provider: "test", model: "m1", baseUrl: server.url, apiKey: "k1", retry }),
  },
  {
    name: "anthropic messages",
    api: "anthropic",
    make: (server, retry = FAST_RETRY) =>
      new AnthropicMessagesClient({
        provider: "test",
        model: "m1",
        baseUrl: server.url.replace(/\/v1$/, ""),
        apiKey: "k1",
        retry,
      }),
  },
];

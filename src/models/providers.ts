/**
 * The built-in providers: `openai` (Responses API), `openai-compatible` and `ollama` (Chat Completions)
 * and `anthropic` (Messages API). Each reads its variables only through the `env` lookup it is given.
 *
 * @module
 */

import { AnthropicMessagesClient } from "./anthropic_messages.ts";
import { MissingModelKeyError } from "./errors.ts";
import { OpenAiChatClient } from "./openai_chat.ts";
import { OpenAiResponsesClient } from "./openai_responses.ts";
import type { EnvLookup, ModelProvider } from "./types.ts";

/** A variable's value; an empty value counts as unset. */
function read(env: EnvLookup, name: string): string | undefined {
  const value = env(name);
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function required(env: EnvLookup, variable: { provider: string; name: string }): string {
  const value = read(env, variable.name);
  if (value === undefined) throw new MissingModelKeyError(variable.provider, variable.name);
  return value;
}

/** `openai`: the Responses API at `OPENAI_BASE_URL` (default `https://api.openai.com/v1`), key
 * `OPENAI_API_KEY` (required). */
export const OPENAI_PROVIDER: ModelProvider = {
  name: "openai",
  variables: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
  create: (model, options) =>
    new OpenAiResponsesClient({
      provider: "openai",
      model,
      apiKey: required(options.env, { provider: "openai", name: "OPENAI_API_KEY" }),
      baseUrl: read(options.env, "OPENAI_BASE_URL") ?? "https://api.openai.com/v1",
      fetch: options.fetch,
      retry: options.retry,
    }),
};

/** `openai-compatible`: Chat Completions at `OPENAI_COMPATIBLE_BASE_URL` (required), key
 * `OPENAI_COMPATIBLE_API_KEY` (optional: no Authorization header without it). */
export const OPENAI_COMPATIBLE_PROVIDER: ModelProvider = {
  name: "openai-compatible",
  variables: ["OPENAI_COMPATIBLE_API_KEY", "OPENAI_COMPATIBLE_BASE_URL"],
  create: (model, options) =>
    new OpenAiChatClient({
      provider: "openai-compatible",
      model,
      baseUrl: required(options.env, { provider: "openai-compatible", name: "OPENAI_COMPATIBLE_BASE_URL" }),
      apiKey: read(options.env, "OPENAI_COMPATIBLE_API_KEY"),
      fetch: options.fetch,
      retry: options.retry,
    }),
};

/** The Ollama base URL for an `OLLAMA_HOST` value: `http://` is added when there is no scheme, and the
 * default port 11434 when neither scheme nor port is given. */
export function ollamaBaseUrl(host: string | undefined): string {
  let base = host ?? "http://localhost:11434";
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(base)) {
    const url = new URL(`http://${base}`);
    if (url.port === "") url.port = "11434";
    base = url.href;
  }
  return `${base.replace(/\/+$/, "")}/v1`;
}

/** `ollama`: Chat Completions at `${OLLAMA_HOST}/v1` (default `http://localhost:11434`), no key. */
export const OLLAMA_PROVIDER: ModelProvider = {
  name: "ollama",
  variables: ["OLLAMA_HOST"],
  create: (model, options) =>
    new OpenAiChatClient({
      provider: "ollama",
      model,
      baseUrl: ollamaBaseUrl(read(options.env, "OLLAMA_HOST")),
      fetch: options.fetch,
      retry: options.retry,
    }),
};

/** `anthropic`: the Messages API at `ANTHROPIC_BASE_URL` (default `https://api.anthropic.com`), key
 * `ANTHROPIC_API_KEY` (required), `max_tokens` 4096. */
export const ANTHROPIC_PROVIDER: ModelProvider = {
  name: "anthropic",
  variables: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
  create: (model, options) =>
    new AnthropicMessagesClient({
      provider: "anthropic",
      model,
      apiKey: required(options.env, { provider: "anthropic", name: "ANTHROPIC_API_KEY" }),
      baseUrl: read(options.env, "ANTHROPIC_BASE_URL") ?? "https://api.anthropic.com",
      fetch: options.fetch,
      retry: options.retry,
    }),
};

/** Every built-in provider. */
export const BUILT_IN_PROVIDERS: readonly ModelProvider[] = [
  OPENAI_PROVIDER,
  OPENAI_COMPATIBLE_PROVIDER,
  OLLAMA_PROVIDER,
  ANTHROPIC_PROVIDER,
];

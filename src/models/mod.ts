/**
 * Models: thin clients of the model APIs on `fetch`, a provider registry, bounded retries and SSE
 * streaming. The agent loop asks a {@linkcode ModelClient} for one turn at a time
 * ({@linkcode ModelClient.complete}) and runs the tool calls itself.
 *
 * ## Model strings
 * `"<provider>:<model>"`, split at the first `:` so the model part may hold more (`ollama:llama3.2:3b`).
 * {@linkcode ProviderRegistry.resolve} throws {@linkcode UnknownProviderError} for an unknown provider (or
 * a string without both parts) and {@linkcode MissingModelKeyError} (naming the variable, never a value)
 * when a required variable is unset.
 *
 * ## Built-in providers
 * Variables are read only through the `env` lookup given to `resolve` (never the process environment directly); an empty value
 * counts as unset. {@linkcode ProviderRegistry.variables} lists them all for the permission plan.
 *
 * | provider | API | variables (default) |
 * | --- | --- | --- |
 * | `openai` | Responses API, `POST {base}/responses`, `store: false` | `OPENAI_API_KEY` (required), `OPENAI_BASE_URL` (`https://api.openai.com/v1`) |
 * | `openai-compatible` | Chat Completions, `POST {base}/chat/completions` | `OPENAI_COMPATIBLE_BASE_URL` (required), `OPENAI_COMPATIBLE_API_KEY` (optional: no `Authorization` header without it) |
 * | `ollama` | Chat Completions at `{OLLAMA_HOST}/v1` | `OLLAMA_HOST` (`http://localhost:11434`; `http://` added when it has no scheme, port 11434 when it has neither scheme nor port) |
 * | `anthropic` | Messages API, `POST {base}/v1/messages`, `anthropic-version: 2023-06-01`, `max_tokens` 4096 | `ANTHROPIC_API_KEY` (required), `ANTHROPIC_BASE_URL` (`https://api.anthropic.com`) |
 *
 * `openai-compatible` covers vLLM, LM Studio, Groq, OpenRouter, Together, DeepSeek and Gemini's
 * compatible endpoint. System messages become `instructions` (Responses) or `system` (Messages); tool
 * results become `tool` messages (Chat Completions), `function_call_output` items (Responses) or
 * `tool_result` blocks, consecutive ones in one user message (Messages; `isError` sets `is_error`).
 *
 * ## Retries
 * 429 and 5xx answers and network errors are retried, at most `maxRetries` times (default 3), waiting
 * `baseDelayMs * 2^(n-1)` (default 500 ms, no jitter) or what the server asks with `retry-after-ms` or
 * `retry-after` (seconds or an HTTP date), each wait capped at `maxDelayMs` (default 20 s). `onRetry` is
 * called before each wait, so every attempt can be journaled. Other 4xx fail at once. Failures are
 * {@linkcode ModelError}s: `http` (with `status`), `malformed` (not JSON, also a body cut mid-JSON, or
 * missing fields), `truncated` (a stream that ends before its final event, or an answer cut by its length
 * limit), `network`, `aborted`. Their messages never hold the provider's text; its first 500 characters
 * are in `detail`, for logs only.
 *
 * ## Streaming
 * With `stream: true` the answer is read as server-sent events and `onText` gets the text deltas as they
 * come; the turn is the same as without streaming (tool-call deltas are assembled).
 *
 * ## Your own provider
 * A {@linkcode ModelProvider} is a name, the variables it reads and a `create` function; the built-in
 * clients ({@linkcode OpenAiChatClient}, {@linkcode OpenAiResponsesClient},
 * {@linkcode AnthropicMessagesClient}) can be reused for any server speaking their format.
 *
 * @example Register a provider
 * ```ts
 * import { MissingModelKeyError, OpenAiChatClient, ProviderRegistry } from "@agentry/agentry/models";
 *
 * const registry = new ProviderRegistry();
 * registry.register({
 *   name: "groq",
 *   variables: ["GROQ_API_KEY"],
 *   create(model, { env, fetch, retry }) {
 *     const apiKey = env("GROQ_API_KEY");
 *     if (!apiKey) throw new MissingModelKeyError("groq", "GROQ_API_KEY");
 *     return new OpenAiChatClient({
 *       provider: "groq",
 *       model,
 *       baseUrl: "https://api.groq.com/openai/v1",
 *       apiKey,
 *       fetch,
 *       retry,
 *     });
 *   },
 * });
 * const client = registry.resolve("groq:llama-3.3-70b-versatile", { env: () => "gsk-example" });
 * console.log(client.provider, client.model);
 * ```
 *
 * @module
 */

// The provider-neutral shapes the agent loop speaks.
export type {
  ChatMessage,
  EnvLookup,
  ModelAttempt,
  ModelClient,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  ProviderOptions,
  RetryOptions,
  ToolCall,
  ToolSpec,
  Usage,
} from "./types.ts";

// Resolving "<provider>:<model>" strings.
export { parseModelString, ProviderRegistry } from "./registry.ts";
export {
  ANTHROPIC_PROVIDER,
  BUILT_IN_PROVIDERS,
  OLLAMA_PROVIDER,
  OPENAI_COMPATIBLE_PROVIDER,
  OPENAI_PROVIDER,
} from "./providers.ts";

// Failures.
export { MissingModelKeyError, ModelError, type ModelErrorKind, UnknownProviderError } from "./errors.ts";
export type { ModelErrorOptions } from "./errors.ts";

// The clients, for providers of one's own.
export type { HttpClientOptions } from "./client_options.ts";
export { OpenAiChatClient, type OpenAiChatClientOptions } from "./openai_chat.ts";
export { OpenAiResponsesClient, type OpenAiResponsesClientOptions } from "./openai_responses.ts";
export {
  ANTHROPIC_VERSION,
  AnthropicMessagesClient,
  type AnthropicMessagesClientOptions,
} from "./anthropic_messages.ts";

/**
 * The shapes every model client speaks: messages, tools, turns, usage, requests and the provider seam.
 *
 * @module
 */

/** Reads one host environment variable (`undefined` when unset). Providers read variables only through it. */
export type EnvLookup = (name: string) => string | undefined;

/** A tool offered to the model. */
export interface ToolSpec {
  /** The name the model calls it by. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** The JSON Schema object of its arguments. */
  inputSchema: Record<string, unknown>;
}

/** A tool call the model asked for. */
export interface ToolCall {
  /** The provider's call id, echoed back with the result. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments as raw JSON text, as the model sent them (may be invalid JSON). */
  arguments: string;
}

/** One message of a conversation, in the provider-neutral shape the clients translate. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string; isError?: boolean };

/** Tokens used by one model turn (wire names, as journaled). */
export interface Usage {
  /** Prompt tokens. */
  input_tokens: number;
  /** Completion tokens. */
  output_tokens: number;
}

/** What one model turn answered. */
export interface ModelTurn {
  /** The assistant text ("" when it only called tools). */
  text: string;
  /** The tool calls, in the order the model gave them (several when it asks for parallel calls). */
  toolCalls: ToolCall[];
  /** Tokens used by this turn (0 when the provider did not say). */
  usage: Usage;
  /** Why the turn ended: a final answer, tool calls to run, or anything else (e.g. a content filter). */
  stopReason: "stop" | "tool_calls" | "other";
}

/** One failed attempt that is about to be retried (given to {@linkcode ModelRequest.onRetry}). */
export interface ModelAttempt {
  /** The 1-based number of the attempt that failed; the next attempt is `attempt + 1`. */
  attempt: number;
  /** Its HTTP status, `null` for a network error. */
  status: number | null;
  /** How long the client waits before the next attempt. */
  delay_ms: number;
  /** Why it is retried: `"http 429"`, `"http 503"`, `"network"`. */
  reason: string;
}

/** One request for a model turn. */
export interface ModelRequest {
  /** The conversation so far. */
  messages: ChatMessage[];
  /** The tools offered (may be empty). */
  tools: ToolSpec[];
  /** Aborts the request, its retry waits and its stream (the call rejects with a `ModelError` "aborted"). */
  signal?: AbortSignal;
  /** Stream the answer over server-sent events. @default false */
  stream?: boolean;
  /** Text deltas as they stream (called only when streaming). */
  onText?: (delta: string) => void;
  /** Called before each retry wait, so the caller can journal the attempt. */
  onRetry?: (attempt: ModelAttempt) => void;
}

/** A model of one provider, ready to answer turns. */
export interface ModelClient {
  /** The provider's registry name (`openai`, `anthropic`, ...). */
  readonly provider: string;
  /** The model name as the provider knows it. */
  readonly model: string;
  /** Asks for one turn; rejects with a `ModelError` (or the caller's abort) and never with provider text. */
  complete(request: ModelRequest): Promise<ModelTurn>;
}

/** Bounds of the retries of 429 and 5xx answers and network errors. */
export interface RetryOptions {
  /** Retries after the first attempt. @default 3 */
  maxRetries?: number;
  /** The first backoff wait; attempt n waits `baseDelayMs * 2^(n-1)`. @default 500 */
  baseDelayMs?: number;
  /** The cap of any wait, `retry-after` included. @default 20000 */
  maxDelayMs?: number;
}

/** What a provider needs to build a client. */
export interface ProviderOptions {
  /** Where the provider reads its variables (never the process environment directly). */
  env: EnvLookup;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Retry bounds. */
  retry?: RetryOptions;
}

/** A model provider: a name in `"<provider>:<model>"` and a factory of clients. */
export interface ModelProvider {
  /** The registry name (the part before the first `:` of a model string). */
  readonly name: string;
  /** The host environment variables it reads (granted by the permission plan). */
  readonly variables: readonly string[];
  /** A client for `model`; throws `MissingModelKeyError` when a required variable is unset. */
  create(model: string, options: ProviderOptions): ModelClient;
}

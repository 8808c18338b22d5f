/**
 * The model as mcpcast's curation and task generation use it: a completer takes a system prompt and a
 * user prompt and answers text. `modelCompleter` builds one from a `"<provider>:<model>"` string through
 * the model layer's registry (a tool-less turn, no streaming); users bring any other client as a function.
 *
 * @module
 */

import { type EnvLookup, ModelError, ProviderRegistry, type RetryOptions } from "../../models/mod.ts";
import { McpcastError } from "../errors.ts";

/** Answers `user` under `system` with text (curation plans, evaluation tasks). */
export type Completer = (system: string, user: string, signal?: AbortSignal) => Promise<string>;

/** Options of {@linkcode modelCompleter}. */
export interface ModelCompleterOptions {
  /** Where the provider reads its variables (keys, base URLs). */
  env: EnvLookup;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Retry bounds of the model client. */
  retry?: RetryOptions;
  /** Providers. @default the built-in ones */
  registry?: ProviderRegistry;
}

/**
 * A completer for `model` (`"<provider>:<model>"`). Throws {@linkcode McpcastError} naming the model and
 * the variable for an unknown provider or a missing key (never a value); a failed request rejects with
 * `model '<model>' could not be used: <reason>`.
 */
export function modelCompleter(model: string, options: ModelCompleterOptions): Completer {
  const registry = options.registry ?? new ProviderRegistry();
  let client;
  try {
    client = registry.resolve(model, { env: options.env, fetch: options.fetch, retry: options.retry });
  } catch (error) {
    throw new McpcastError(`model '${model}' could not be used: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return async (system, user, signal) => {
    try {
      const turn = await client.complete({
        messages: [{ role: "system", content: system }, { role: "user", content: user }],
        tools: [],
        signal,
      });
      return turn.text;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const reason = error instanceof ModelError ? error.message : "the request failed";
      throw new McpcastError(`model '${model}' could not be used: ${reason}`, { cause: error });
    }
  };
}

/**
 * The provider registry: `"<provider>:<model>"` strings resolved to model clients.
 *
 * @module
 */

import { UnknownProviderError } from "./errors.ts";
import { BUILT_IN_PROVIDERS } from "./providers.ts";
import type { ModelClient, ModelProvider, ProviderOptions } from "./types.ts";

/**
 * Splits `"<provider>:<model>"` at its first `:` (the model part may hold more, e.g.
 * `ollama:llama3.2:3b`). Throws `UnknownProviderError` when either part is empty.
 */
export function parseModelString(model: string): { provider: string; model: string } {
  const colon = model.indexOf(":");
  const provider = colon === -1 ? "" : model.slice(0, colon).trim();
  const name = colon === -1 ? "" : model.slice(colon + 1).trim();
  if (provider === "" || name === "") {
    throw new UnknownProviderError(provider, `model "${model}" is not of the form "<provider>:<model>"`);
  }
  return { provider, model: name };
}

/** The model providers known by name; the built-ins are registered at construction. */
export class ProviderRegistry {
  #providers = new Map<string, ModelProvider>();

  /** A registry holding the built-in providers (`openai`, `openai-compatible`, `ollama`, `anthropic`). */
  constructor() {
    for (const provider of BUILT_IN_PROVIDERS) this.register(provider);
  }

  /** Adds `provider`, replacing one of the same name. */
  register(provider: ModelProvider): void {
    this.#providers.set(provider.name, provider);
  }

  /** Whether a provider of that name is registered. */
  has(name: string): boolean {
    return this.#providers.has(name);
  }

  /** The registered names, sorted. */
  names(): string[] {
    return [...this.#providers.keys()].sort();
  }

  /** Every variable any registered provider reads, sorted, without duplicates. */
  variables(): string[] {
    const names = new Set<string>();
    for (const provider of this.#providers.values()) for (const name of provider.variables) names.add(name);
    return [...names].sort();
  }

  /** A client for a `"<provider>:<model>"` string; throws `UnknownProviderError` or `MissingModelKeyError`. */
  resolve(model: string, options: ProviderOptions): ModelClient {
    const parsed = parseModelString(model);
    const provider = this.#providers.get(parsed.provider);
    if (provider === undefined) throw new UnknownProviderError(parsed.provider);
    return provider.create(parsed.model, options);
  }
}

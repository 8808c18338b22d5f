/**
 * The stores a process holds for its agent: context state (for the life of the deployment), secrets
 * (resolved at start) and long-term memory (open while started).
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { describeError } from "../_util/errors.ts";
import type { ProcessJournal } from "../journal/mod.ts";
import type { ProcessConfig } from "./config/mod.ts";
import type { EnvLookup } from "./process_parts.ts";
import { resolveEnvReferences } from "./policy/mod.ts";
import { ContextStore } from "./context/context_store.ts";
import { SecretStore } from "./secrets/secret_store.ts";
import type { MemoryStore } from "./memory/memory_store.ts";
import { openMemory } from "./memory/open_memory.ts";

/** Options for {@linkcode ProcessStores}. */
export interface ProcessStoresOptions {
  /** Process name. */
  name: string;
  /** The current config (as deployed, references unresolved). */
  config: () => ProcessConfig;
  /** The process journal. */
  journal: ProcessJournal | undefined;
  /** Where failures to close are logged. */
  logger: Logger;
  /** The runtime's data directory (default memory directories lie in it). */
  dataDir: string;
}

/** Context, secrets and memory of one process. */
export class ProcessStores {
  /** Context state, kept across starts. */
  readonly context: ContextStore;
  /** Secrets, resolved at start. */
  readonly secrets: SecretStore;
  #options: ProcessStoresOptions;
  #memory: MemoryStore | undefined;

  /** Stores for a new deployment: the context holds its initial state, nothing else is open. */
  constructor(options: ProcessStoresOptions) {
    this.#options = options;
    const { journal, config } = options;
    this.context = new ContextStore({ settings: () => config().context, journal });
    this.secrets = new SecretStore({ process: options.name, settings: () => config().secrets, journal });
  }

  /** Long-term memory while started; undefined otherwise or with provider `none`. */
  get memory(): MemoryStore | undefined {
    return this.#memory;
  }

  /**
   * At start: resolves the secrets (unless still held from before a stop with `revoke_on_stop` false)
   * and opens the memory store. Throws when a secret reference cannot be resolved or memory cannot open.
   */
  async start(env: EnvLookup): Promise<void> {
    if (!this.secrets.resolved) this.secrets.resolve(env);
    const { name, dataDir, config } = this.#options;
    this.#memory = await openMemory(config().context, {
      process: name,
      dataDir,
      resolveReferences: (text) => resolveEnvReferences(text, env),
    });
  }

  /** At stop (or a failed start): closes memory and, with `revoke_on_stop`, revokes the secrets. */
  async stop(): Promise<void> {
    const memory = this.#memory;
    this.#memory = undefined;
    try {
      await memory?.close();
    } catch (error) {
      this.#options.logger.warning("memory store failed to close", {
        process: this.#options.name,
        error: describeError(error),
      });
    }
    if (this.#options.config().secrets.revoke_on_stop) await this.secrets.revoke();
  }

  /** When the process is removed: secrets revoked whatever `revoke_on_stop` says, context reset. */
  async close(): Promise<void> {
    await this.stop();
    await this.secrets.revoke();
    await this.context.reset();
  }
}

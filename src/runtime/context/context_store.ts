/**
 * ContextStore: a process's key-value state, shown to the agent in its prompt and read and written over
 * the control API and by the agent's built-in tool.
 *
 * @module
 */

import type { JournalEntry, ProcessJournal } from "../../journal/mod.ts";
import { RuntimeError } from "../errors.ts";
import type { ProcessSpool, SpoolLog } from "../spool.ts";
import { checkJsonValue, jsonBytes } from "./_json_value.ts";
import { CONTEXT_UPDATE_ENTRY, replayContext } from "./recover_context.ts";
import { CONTEXT_STATE_KEY, openContextLog, type StoredContext } from "./context_log.ts";

/** Who wrote to the context: the control API, the agent's built-in tool, or the runtime itself. */
export type ContextSource = "api" | "agent" | "system";

/** Largest serialised state (UTF-8 bytes of its JSON): 256 KiB. */
export const CONTEXT_MAX_BYTES = 256 * 1024;

/** What `GET /processes/{name}/context` shows (without the name). */
export interface ContextView {
  /** The state: a JSON object. */
  state: Record<string, unknown>;
  /** The keys that may be written, or null when every key may be. */
  writable_keys: string[] | null;
  /** True when `writable_keys` was not configured: every key may be written. */
  all_keys_writable: boolean;
}

/** The context settings a store reads (read again at each write, so a reconfigure applies at once). */
export interface ContextSettings {
  /** Writable keys; absent means every key, `[]` none. */
  writable_keys?: string[];
  /** The state a new store starts from. */
  initial_state: Record<string, unknown>;
}

/** Options for {@linkcode ContextStore}. */
export interface ContextStoreOptions {
  /** The current context settings of the process. */
  settings: () => ContextSettings;
  /** Where writes are journaled as `context_update` entries. @default not journaled */
  journal?: ProcessJournal;
}

/**
 * The state of one process, kept across runs and starts, and across runtime restarts and crashes in the
 * process spool (see {@linkcode ContextStore.openSpool}); a journal, when the process keeps one, also
 * brings it back (see {@linkcode ContextStore.recover}).
 *
 * A write is all keys or none: when any key is not writable, {@linkcode ContextStore.write} throws a
 * {@linkcode RuntimeError} WRITE_DENIED naming every refused key and writes nothing. A `null` value
 * deletes its key. Changes apply one at a time, each once the spool holds it. Each write is journaled as
 * one `context_update` entry
 * `{values: {key: value | null}, source}`; a reset (process removed) as `{values: {}, source: "system",
 * reset: true}`.
 *
 * @example
 * ```ts
 * import { ContextStore } from "./context_store.ts";
 * const context = new ContextStore({ settings: () => ({ writable_keys: ["status"], initial_state: {} }) });
 * await context.write({ status: "ok" }, "api");
 * console.log(context.view()); // { state: { status: "ok" }, writable_keys: ["status"], all_keys_writable: false }
 * ```
 */
export class ContextStore {
  #settings: () => ContextSettings;
  #journal: ProcessJournal | undefined;
  #state: Record<string, unknown>;
  #log: SpoolLog<StoredContext> | undefined;
  #recovered = false;
  #changes: Promise<void> = Promise.resolve();

  /** A store holding a copy of the settings' `initial_state`. */
  constructor(options: ContextStoreOptions) {
    this.#settings = options.settings;
    this.#journal = options.journal;
    this.#state = structuredClone(this.#settings().initial_state);
  }

  /** The state and which keys may be written (a copy). */
  view(): ContextView {
    const keys = this.#settings().writable_keys;
    return {
      state: this.snapshot(),
      writable_keys: keys === undefined ? null : [...keys],
      all_keys_writable: keys === undefined,
    };
  }

  /** A deep copy of the value under `key`, or undefined. */
  get(key: string): unknown {
    return Object.hasOwn(this.#state, key) ? structuredClone(this.#state[key]) : undefined;
  }

  /** Whether `key` may be written. */
  isWritable(key: string): boolean {
    const keys = this.#settings().writable_keys;
    return keys === undefined || keys.includes(key);
  }

  /**
   * Writes every key of `values` or none. `null` deletes a key. Throws a {@linkcode RuntimeError}
   * WRITE_DENIED (`details.keys`: every refused key) or CONTEXT_INVALID (a value that is not JSON, or a
   * state larger than {@linkcode CONTEXT_MAX_BYTES}); then nothing is written. When the spool write
   * fails the write is refused with that error and the state stays as it was. Resolves once the spool
   * holds the new state (and the write is journaled).
   */
  async write(values: Record<string, unknown>, source: ContextSource): Promise<void> {
    const keys = Object.keys(values);
    const refused = keys.filter((key) => !this.isWritable(key));
    if (refused.length > 0) {
      throw new RuntimeError("WRITE_DENIED", `context keys not writable: ${refused.join(", ")}`, {
        details: { keys: refused },
      });
    }
    for (const key of keys) {
      const problem = checkJsonValue(values[key]);
      if (problem !== undefined) {
        throw new RuntimeError("CONTEXT_INVALID", `context value at ${key} is not JSON: ${problem}`, {
          details: { field: key, expected: "a JSON value" },
        });
      }
    }
    if (keys.length === 0) return;
    const copy = structuredClone(values);
    await this.#change(() => {
      const next = { ...this.#state };
      for (const key of keys) {
        if (copy[key] === null) delete next[key];
        else next[key] = copy[key];
      }
      const size = jsonBytes(next);
      if (size > CONTEXT_MAX_BYTES) {
        throw new RuntimeError("CONTEXT_INVALID", `context state would be ${size} bytes`, {
          details: { field: "state", expected: `a state of at most ${CONTEXT_MAX_BYTES} bytes as JSON` },
        });
      }
      return next;
    }, { values: copy, source });
  }

  /** A deep copy of the state (for checkpoints and the prompt). */
  snapshot(): Record<string, unknown> {
    return structuredClone(this.#state);
  }

  /**
   * Replaces the state with a copy of `state` (a rewind), kept in the spool before it resolves; not
   * journaled (a rewind journals its own checkpoint). A failed spool write rejects and changes nothing.
   */
  restore(state: Record<string, unknown>): Promise<void> {
    const copy = structuredClone(state);
    return this.#change(() => copy);
  }

  /** Puts the state back to the settings' `initial_state`, journaled as a reset (the process is removed). */
  reset(): Promise<void> {
    return this.#change(() => structuredClone(this.#settings().initial_state), {
      values: {},
      source: "system",
      reset: true,
    });
  }

  /**
   * At deploy, before {@linkcode ContextStore.openSpool}: brings the state back from the process journal's
   * `entries` (oldest first): the last `checkpoint` entry's `data.context`, then the `context_update`
   * entries after it (see {@linkcode replayContext}). Answers whether anything was recovered; with nothing
   * to recover the state is left as it is.
   */
  recover(entries: readonly JournalEntry[]): boolean {
    const state = replayContext(entries, this.#settings().initial_state);
    if (state === undefined) return false;
    this.#state = state;
    this.#recovered = true;
    return true;
  }

  /**
   * At deploy, after {@linkcode ContextStore.recover}: opens the spool's context log. Its record, when
   * present, is the state (it is written before every change is answered, so it is never older than the
   * journal: the spool wins). Without one, a state recovered from the journal is written to it so both
   * agree; else the state stays `initial_state` and nothing is written (a later `initial_state` applies
   * until the first write). From then on every change is written there before it resolves.
   */
  async openSpool(spool: ProcessSpool): Promise<void> {
    const log = await openContextLog(spool);
    const stored = log.get(CONTEXT_STATE_KEY);
    if (stored) this.#state = stored.state;
    else if (this.#recovered) await log.put(CONTEXT_STATE_KEY, { state: this.snapshot() });
    this.#log = log;
  }

  /**
   * Applies one change after the ones before it: `next` builds the new state from the current one (or
   * throws, changing nothing), the spool keeps it, then it becomes the state and `entry` is journaled.
   */
  #change(next: () => Record<string, unknown>, entry?: Record<string, unknown>): Promise<void> {
    const run = this.#changes.then(async () => {
      const state = next();
      await this.#log?.put(CONTEXT_STATE_KEY, { state: structuredClone(state) });
      this.#state = state;
      if (entry) await this.#journal?.record(CONTEXT_UPDATE_ENTRY, entry);
    });
    this.#changes = run.catch(() => {});
    return run;
  }
}

/**
 * A journal bound to one process and a detail level; recording never fails the process.
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import { redactStrings } from "../_util/redact_strings.ts";
import { Logger } from "../log.ts";
import type { Journal, JournalBackend, JournalEntry, JournalLevel, JournalReadOptions } from "./types.ts";

/** Entry types written only at the `full` level; every other type is written at `checkpoint` too. */
export const FULL_ONLY_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "trigger_event",
  "invocation_start",
  "tool_call",
  "tool_result",
  "model_turn",
]);

/** Replaces sensitive text in entries (a process's secret store is one). */
export interface JournalRedactor {
  /** Whether there is anything to replace now. */
  readonly redacts: boolean;
  /** `text` with sensitive parts replaced. */
  redact(text: string): string;
}

/** Options for {@linkcode ProcessJournal}. */
export interface ProcessJournalOptions {
  /** Process name the entries belong to. */
  process: string;
  /** Detail level: `checkpoint` or `full` (a `none` level keeps no journal, so has no ProcessJournal). */
  level: JournalLevel;
  /** Receives a warning for each failed write. @default new Logger("agentry.journal") */
  logger?: Logger;
}

/**
 * One process's view of a {@linkcode Journal}. {@linkcode ProcessJournal.record} writes only what the
 * level allows and never throws: a failing journal is logged, never allowed to break the process.
 *
 * @example
 * ```ts
 * import { MemoryJournal } from "./memory_journal.ts";
 * import { ProcessJournal } from "./process_journal.ts";
 * const journal = new ProcessJournal(new MemoryJournal(), { process: "writer", level: "checkpoint" });
 * await journal.record("state_transition", { to: "running" }); // written
 * await journal.record("tool_call", { tool: "search" }); // skipped at checkpoint level
 * ```
 */
export class ProcessJournal {
  #journal: Journal;
  #process: string;
  #level: "checkpoint" | "full";
  #logger: Logger;
  #redactor: JournalRedactor | undefined;

  /** Binds `journal` to one process; throws for a level other than `checkpoint` or `full`. */
  constructor(journal: Journal, options: ProcessJournalOptions) {
    const { level } = options;
    if (level !== "checkpoint" && level !== "full") {
      throw new Error(`a process journal needs level "checkpoint" or "full", got ${JSON.stringify(level)}`);
    }
    this.#journal = journal;
    this.#process = options.process;
    this.#level = level;
    this.#logger = options.logger ?? new Logger("agentry.journal");
  }

  /**
   * Passes every string of every entry written from now on (keys included) through `redactor.redact`
   * while `redactor.redacts` is true; the process gives its secret store, so secret values read
   * `[REDACTED]`.
   */
  setRedactor(redactor: JournalRedactor | undefined): void {
    this.#redactor = redactor;
  }

  /** The detail level. */
  get level(): JournalLevel {
    return this.#level;
  }

  /** The process name. */
  get process(): string {
    return this.#process;
  }

  /** The backend of the underlying journal. */
  get backend(): JournalBackend {
    return this.#journal.backend;
  }

  /** Whether entries of this type are written at this level. */
  records(entryType: string): boolean {
    return this.#level === "full" || !FULL_ONLY_ENTRY_TYPES.has(entryType);
  }

  /**
   * Writes an entry when the level allows it. Resolves the entry, or undefined when skipped or when
   * the write failed (then a warning is logged). Never rejects.
   */
  async record(entryType: string, data: Record<string, unknown>): Promise<JournalEntry | undefined> {
    try {
      if (!this.records(entryType)) return undefined;
      const redactor = this.#redactor;
      const written = redactor?.redacts ? redactStrings(data, (text) => redactor.redact(text)) : data;
      return await this.#journal.append(this.#process, entryType, written);
    } catch (error) {
      try {
        this.#logger.warning("journal write failed", {
          process: this.#process,
          entry_type: entryType,
          error: describeError(error),
        });
      } catch {
        // A broken log sink must not break the process either.
      }
      return undefined;
    }
  }

  /** The newest `limit` matching entries of this process, oldest first. */
  read(options: JournalReadOptions = {}): Promise<JournalEntry[]> {
    return this.#journal.read(this.#process, options);
  }

  /** One entry of this process by id. */
  get(entryId: string): Promise<JournalEntry | undefined> {
    return this.#journal.get(this.#process, entryId);
  }
}

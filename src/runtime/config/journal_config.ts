/**
 * JournalConfig: whether and where a process keeps its journal. A config without a `journal` section
 * keeps none (the same as level `none`).
 *
 * @module
 */

import type { z } from "zod";
import {
  JOURNAL_BACKENDS,
  JOURNAL_LEVELS,
  type JournalBackend,
  type JournalLevel,
} from "../../journal/mod.ts";
import { nonEmptyString, oneOf, type Resolved, strictObject } from "./_fields.ts";
import { exactly } from "../../_util/schema_proof.ts";

/** The `journal` section as written. Without the section the process keeps no journal. */
export interface JournalConfigInput {
  /**
   * How much is recorded: "none" (nothing), "checkpoint" (state changes and run outcomes) or "full"
   * (also every trigger event, run start, tool call and tool result).
   * @default "checkpoint"
   */
  level?: JournalLevel;
  /**
   * Where entries are stored: "memory" (lost on exit), "file" (one JSON-lines file per process) or
   * "sqlite" (one database file).
   * @default "file"
   */
  backend?: JournalBackend;
  /**
   * Directory of a "file" or "sqlite" journal. When absent the runtime uses `<dataDir>/journal`. For API
   * deploys it must lie inside the runtime's data directory.
   */
  path?: string;
}

/** The `journal` section with every default filled (`path` has none). */
export type JournalConfig = Resolved<JournalConfigInput, "path">;

/** Journal settings. */
export const JournalConfigSchema: z.ZodType<JournalConfig, JournalConfigInput> = exactly(strictObject({
  level: oneOf(JOURNAL_LEVELS).default("checkpoint"),
  backend: oneOf(JOURNAL_BACKENDS).default("file"),
  path: nonEmptyString("a directory path").optional(),
}));

/** True when the config keeps a journal (a section is present and its level is not `none`). */
export function journalEnabled(journal: JournalConfig | undefined): journal is JournalConfig {
  return journal !== undefined && journal.level !== "none";
}

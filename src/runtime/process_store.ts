/**
 * Durable records of API-deployed processes, so they survive a runtime restart.
 *
 * What is durable: the name, process id, deploy time, the config exactly as deployed (with `${VAR}`
 * references unresolved) and the state the operator last asked for (`running`, `suspended` or
 * `stopped`). What is not: lifecycle counters, in-flight work, queues and anything held in memory.
 *
 * @module
 */

import { join } from "node:path";
import { z } from "zod";

/** The state an operator last asked for. */
export type DesiredState = "running" | "suspended" | "stopped";

/** One stored deployment. */
export interface StoredProcess {
  /** Process name. */
  name: string;
  /** Process id, kept across restarts. */
  process_id: string;
  /** Deploy time, epoch seconds. */
  created_at: number;
  /** The config object exactly as deployed. */
  config: Record<string, unknown>;
  /** What to bring it back to. */
  desired_state: DesiredState;
}

/** Where stored deployments live. */
export interface ProcessStore {
  /** Every stored deployment, sorted by name; unreadable records are reported, not returned. */
  list(): Promise<{ records: StoredProcess[]; problems: string[] }>;
  /** Creates or replaces a record. */
  save(record: StoredProcess): Promise<void>;
  /** Removes a record; removing a missing one is fine. */
  remove(name: string): Promise<void>;
}

const StoredProcessSchema = z.strictObject({
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/),
  process_id: z.string().min(1),
  created_at: z.number(),
  config: z.record(z.string(), z.unknown()),
  desired_state: z.enum(["running", "suspended", "stopped"]),
});

/** Keeps records in memory (nothing survives the process). */
export class MemoryProcessStore implements ProcessStore {
  #records = new Map<string, StoredProcess>();

  list(): Promise<{ records: StoredProcess[]; problems: string[] }> {
    const records = [...this.#records.values()].sort((a, b) => a.name.localeCompare(b.name));
    return Promise.resolve({ records: structuredClone(records), problems: [] });
  }

  save(record: StoredProcess): Promise<void> {
    this.#records.set(record.name, structuredClone(record));
    return Promise.resolve();
  }

  remove(name: string): Promise<void> {
    this.#records.delete(name);
    return Promise.resolve();
  }
}

/**
 * One JSON file per process, `<dir>/<name>.json`, written atomically (temporary file, then rename) with
 * mode 0600 because configs may hold literal secret values.
 */
export class FileProcessStore implements ProcessStore {
  /** Directory holding the records. */
  readonly dir: string;

  /** A store in `dir` (created on the first save). */
  constructor(dir: string) {
    this.dir = dir;
  }

  async list(): Promise<{ records: StoredProcess[]; problems: string[] }> {
    const records: StoredProcess[] = [];
    const problems: string[] = [];
    let names: string[];
    try {
      names = [];
      for await (const entry of Deno.readDir(this.dir)) {
        if (entry.isFile && entry.name.endsWith(".json")) names.push(entry.name);
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { records, problems };
      throw error;
    }
    for (const file of names.sort()) {
      try {
        const parsed = StoredProcessSchema.parse(JSON.parse(await Deno.readTextFile(join(this.dir, file))));
        if (`${parsed.name}.json` !== file) throw new Error("file name does not match the process name");
        records.push(parsed);
      } catch (error) {
        problems.push(`${file}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
    return { records, problems };
  }

  async save(record: StoredProcess): Promise<void> {
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const target = join(this.dir, `${record.name}.json`);
    const temporary = `${target}.tmp`;
    await Deno.writeTextFile(temporary, JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
    await Deno.rename(temporary, target);
  }

  async remove(name: string): Promise<void> {
    try {
      await Deno.remove(join(this.dir, `${name}.json`));
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

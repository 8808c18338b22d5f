/**
 * One runtime per data directory: `agentry runtime start` holds an exclusive advisory lock (`flock`) on
 * `<data-dir>/runtime.lock` while it runs and writes its pid into the file. The operating system drops the
 * lock when the holder exits, however it exits (SIGKILL included), so a stale file never blocks a restart;
 * the pid in it only names the holder in the refusal.
 *
 * @module
 */

import { join } from "node:path";
import { CliFailure } from "./exit.ts";

/** Name of the lock file inside the data directory. */
export const LOCK_FILE = "runtime.lock";

/** A held data-directory lock; {@linkcode DataDirLock.release} (or disposal) lets go of it. */
export class DataDirLock implements AsyncDisposable {
  /** Path of the lock file. */
  readonly path: string;
  #file: Deno.FsFile | undefined;

  /** Wraps an open, locked file. */
  constructor(path: string, file: Deno.FsFile) {
    this.path = path;
    this.#file = file;
  }

  /** Unlocks and closes the file (kept on disk: removing it could race a runtime starting now). */
  async release(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    if (!file) return;
    try {
      await file.unlock();
    } finally {
      file.close();
    }
  }

  /** Same as `release()`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.release();
  }
}

/**
 * Takes the lock of `dataDir` (which must exist) without waiting. Throws a {@linkcode CliFailure} naming
 * the directory and the holder's pid when another runtime holds it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const path = join(dataDir, LOCK_FILE);
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  let locked = false;
  try {
    locked = await file.tryLock(true);
    if (!locked) {
      const holder = (await Deno.readTextFile(path)).trim();
      const pid = /^\d+$/.test(holder) ? `pid ${holder}` : "pid unknown";
      throw new CliFailure(
        `the data directory ${dataDir} is in use by another runtime (${pid}); stop it or use another --data-dir`,
      );
    }
    await file.truncate(0);
    await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
    return new DataDirLock(path, file);
  } catch (error) {
    if (locked) await file.unlock().catch(() => undefined);
    file.close();
    throw error;
  }
}

/**
 * {@linkcode AppendFile}: an append-only file written through one open descriptor, with group commit.
 *
 * Lines appended while a write is under way go out together in the next write, so a burst of appends
 * costs a few `write` calls, not one each. With `sync` every write is followed by `fdatasync` before its
 * appends resolve: an answer sent after `await append(...)` then survives a power loss, not only a crash
 * of this process. Without it the bytes are in the operating system when the promise resolves (they
 * survive `kill -9`, not a machine crash).
 *
 * @module
 */

import { dirname } from "node:path";
import { endsWithNewline } from "./file_tail.ts";

/** Options for {@linkcode AppendFile}. */
export interface AppendFileOptions {
  /** `fdatasync` after every write (and the directory after a replace) before resolving. @default false */
  sync?: boolean;
  /** File mode when created. @default 0o600 */
  mode?: number;
}

interface Batch {
  parts: string[];
  resolve: () => void;
  reject: (error: unknown) => void;
  done: Promise<void>;
}

const encoder = new TextEncoder();

/**
 * An append-only text file. Appends land in call order; each resolves once its bytes are written (and
 * synced, with `sync`). A file whose last line was torn by a crash gets a newline before the first append,
 * so the torn line never swallows the next one.
 *
 * @example
 * ```ts
 * import { AppendFile } from "./append_file.ts";
 * const dir = await Deno.makeTempDir();
 * const file = new AppendFile(`${dir}/log.jsonl`, { sync: true });
 * await Promise.all([file.append('{"a":1}\n'), file.append('{"b":2}\n')]);
 * await file.close();
 * ```
 */
export class AppendFile {
  /** The file's path. */
  readonly path: string;
  #sync: boolean;
  #mode: number;
  #file: Deno.FsFile | undefined;
  #batch: Batch | undefined;
  #tail: Promise<void> = Promise.resolve();
  #checkEnd = true;
  #closed = false;

  /** A file at `path`; nothing touches the disk until the first append (the directory is created then). */
  constructor(path: string, options: AppendFileOptions = {}) {
    this.path = path;
    this.#sync = options.sync ?? false;
    this.#mode = options.mode ?? 0o600;
  }

  /** Whether writes are followed by `fdatasync`. */
  get sync(): boolean {
    return this.#sync;
  }

  /** Appends `text` (whole lines, ending in a newline); resolves once written (and synced). */
  append(text: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`${this.path} is closed`));
    if (!this.#batch) {
      const batch = newBatch();
      this.#batch = batch;
      this.#tail = this.#tail.then(() => this.#flush(batch));
    }
    this.#batch.parts.push(text);
    return this.#batch.done;
  }

  /**
   * Replaces the whole file with `text`, after every earlier append: written to `<path>.tmp`, synced
   * (with `sync`), renamed over the file, and the directory synced (with `sync`). Later appends go to the
   * new file.
   */
  replace(text: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`${this.path} is closed`));
    this.#batch = undefined;
    const run = this.#tail.then(() => this.#replace(text));
    this.#tail = run.catch(() => {});
    return run;
  }

  /** Waits for pending writes and closes the descriptor; later appends reject. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#tail;
    this.#file?.close();
    this.#file = undefined;
  }

  async #flush(batch: Batch): Promise<void> {
    if (this.#batch === batch) this.#batch = undefined;
    try {
      const file = await this.#open();
      let text = batch.parts.join("");
      if (this.#checkEnd) {
        if (!(await endsWithNewline(this.path))) text = "\n" + text;
        this.#checkEnd = false;
      }
      writeAll(file, encoder.encode(text));
      if (this.#sync) await file.syncData();
      batch.resolve();
    } catch (error) {
      // The write may have stopped half way: check the end again before the next one.
      this.#checkEnd = true;
      batch.reject(error);
    }
  }

  async #open(): Promise<Deno.FsFile> {
    if (this.#file) return this.#file;
    await Deno.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const created = this.#sync && !(await exists(this.path));
    this.#file = await Deno.open(this.path, { append: true, create: true, mode: this.#mode });
    if (created) await syncDirectory(dirname(this.path));
    return this.#file;
  }

  async #replace(text: string): Promise<void> {
    const temporary = `${this.path}.tmp`;
    await Deno.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    {
      using file = await Deno.open(temporary, {
        write: true,
        create: true,
        truncate: true,
        mode: this.#mode,
      });
      writeAll(file, encoder.encode(text));
      if (this.#sync) await file.syncData();
    }
    this.#file?.close();
    this.#file = undefined;
    await Deno.rename(temporary, this.path);
    this.#checkEnd = false;
    if (this.#sync) await syncDirectory(dirname(this.path));
  }
}

/** `fsync` on a directory, so a rename or a new file in it survives a power loss. */
export async function syncDirectory(path: string): Promise<void> {
  using dir = await Deno.open(path, { read: true });
  await dir.sync();
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * Writes every byte. Synchronous on purpose: a write to the page cache takes about a microsecond, while
 * `await file.write()` costs some 25 µs of op dispatch each (measured: `bench/README.md`, webhook on the
 * runtime). The batch still resolves only after the bytes are in the operating system (and synced, with
 * `sync`, which stays asynchronous).
 */
function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A batch nobody awaits must not become an unhandled rejection; callers still see it.
  done.catch(() => {});
  return { parts: [], resolve, reject, done };
}

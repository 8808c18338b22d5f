/**
 * The chain state and file behind the audit middleware: builds, signs and appends entries one at a
 * time, and keeps the last ones in memory.
 *
 * Once the file is open, an entry is built, signed (HMAC computed synchronously) and chained when it is
 * appended, so entries are ordered by the event loop itself and a call never waits on another call's
 * audit write. The lines of one event-loop turn are written together with one synchronous write, by a
 * microtask the turn's first line queues: it runs before anything that reacts to the appending call's
 * result. The first entry (which reads the file's tail to resume the chain) and the entry after a failed
 * write go through an asynchronous path, written before its promise resolves; later entries queue behind it.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import type { Logger } from "../../log.ts";
import { entryVerifies, GENESIS_HASH, hmacKey } from "./_audit_crypto.ts";
import { endsWithNewline } from "../../_util/file_tail.ts";
import { readLogTail } from "./_log_tail.ts";
import { auditLine, type UnsignedEntry } from "./_audit_line.ts";
import { HmacBytes } from "./_hmac_bytes.ts";
import { LineBatch } from "./_line_batch.ts";
import type { AuditEntry } from "./audit_middleware.ts";

/** What the middleware gives for one entry: everything but the chain fields. */
export type EntryFields = Omit<UnsignedEntry, "seq" | "prev_hash" | "resumed">;

/** Settings of an {@linkcode AuditLog}. */
export interface AuditLogInit {
  /** File to append to. */
  logPath?: string;
  /** HMAC secret; without it entries are not chained. */
  secret?: string;
  /** Entries kept in memory. */
  maxMemoryEntries: number;
  /** Warnings and write failures. */
  logger: Logger;
}

const encoder = new TextEncoder();

/** Where the chain stood before an entry (to go back to when its line was not written). */
interface ChainState {
  seq: number;
  prevHash: string;
  resumed: boolean;
}

/** An append-only audit chain, optionally backed by a file. */
export class AuditLog {
  #init: AuditLogInit;
  #key: Promise<CryptoKey> | undefined;
  #signer: HmacBytes | undefined;
  #batch = new LineBatch<{ before: ChainState; fields: EntryFields }>();
  #file: Deno.FsFile | undefined;
  #started = false;
  #checkTail = false;
  #seq = 0;
  #prevHash = GENESIS_HASH;
  #resumed = false;
  #ring: string[] = [];
  #ringStart = 0;
  #lock: Promise<void> = Promise.resolve();
  #queued = 0;
  #ready = false;
  #closed = false;

  constructor(init: AuditLogInit) {
    this.#init = init;
    if (init.secret !== undefined) {
      this.#key = hmacKey(init.secret);
      this.#signer = new HmacBytes(init.secret);
    }
  }

  /** Whether {@linkcode AuditLog.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Adds an entry with `fields` after every earlier one. When this returns `undefined` the entry is
   * signed and its line is written (or its failure logged) by a microtask already queued, so before
   * any reaction to the caller's result; otherwise by the time the returned promise resolves (the first
   * entry, and entries behind one on that path). Never throws or rejects (failures are logged).
   */
  append(fields: EntryFields): Promise<void> | undefined {
    if (this.#ready && this.#queued === 0 && !this.#checkTail && !this.#closed) {
      this.#appendNow(fields);
      return undefined;
    }
    this.#queued++;
    const run = this.#lock.then(async () => {
      try {
        await this.#prepare();
        this.#appendNow(fields);
        this.#flush();
      } catch (error) {
        this.#failed(fields, error);
      } finally {
        this.#queued--;
      }
    });
    this.#lock = run;
    return run;
  }

  /** The entries kept in memory, oldest first. */
  entries(): readonly AuditEntry[] {
    const lines = [...this.#ring.slice(this.#ringStart), ...this.#ring.slice(0, this.#ringStart)];
    return lines.map((line) => Object.freeze(JSON.parse(line)) as AuditEntry);
  }

  /** Waits for pending writes, then closes the file. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#lock;
    this.#flush();
    this.#file?.close();
    this.#file = undefined;
    this.#ready = false;
  }

  async #prepare(): Promise<void> {
    await this.#start();
    if (this.#checkTail && this.#file) {
      if (!(await endsWithNewline(this.#init.logPath!))) writeAllSync(this.#file, encoder.encode("\n"));
      this.#checkTail = false;
    }
    this.#ready = true;
  }

  /**
   * Builds, signs and chains the entry now; with a file, its line joins the batch written by a
   * microtask queued by the batch's first line (so before anything that waits for the call's result).
   */
  #appendNow(fields: EntryFields): void {
    try {
      const entry = fields as UnsignedEntry;
      const before: ChainState = { seq: this.#seq, prevHash: this.#prevHash, resumed: this.#resumed };
      entry.seq = this.#seq;
      if (this.#init.secret !== undefined) entry.prev_hash = this.#prevHash;
      if (this.#resumed) entry.resumed = true;
      const canonical = auditLine(entry);
      // The canonical text is encoded once: signed from the buffer, then the `hmac` member and the
      // newline are put over its closing brace.
      const { buffer, offset } = this.#batch.reserve(canonical.length, 96);
      const { written } = encoder.encodeInto(canonical, buffer.subarray(offset));
      let hmac: string | undefined;
      let line = canonical;
      let end: number;
      if (this.#signer) {
        hmac = this.#signer.hex(buffer, written, offset);
        const tail = `,"hmac":"${hmac}"}\n`;
        const at = offset + written - 1;
        for (let i = 0; i < tail.length; i++) buffer[at + i] = tail.charCodeAt(i);
        end = at + tail.length;
        line = `${canonical.slice(0, -1)},"hmac":"${hmac}"}`;
      } else {
        buffer[offset + written] = 10;
        end = offset + written + 1;
      }
      this.#seq++;
      this.#prevHash = hmac ?? GENESIS_HASH;
      this.#resumed = false;
      if (!this.#file) {
        this.#remember(line);
        return;
      }
      this.#batch.add(end, line, { before, fields });
      if (this.#batch.size === 1) queueMicrotask(this.#flushBound);
    } catch (error) {
      this.#failed(fields, error);
    }
  }

  #flushBound = (): void => this.#flush();

  /**
   * Writes the batch. Lines written whole are kept; after a failed write the chain goes back to the
   * last line written, the rest are logged as not written, and the next entry first ends the file's
   * last line if a partial one was left.
   */
  #flush(): void {
    if (this.#batch.size === 0 || !this.#file) return;
    const { written, failed, error } = this.#batch.write(this.#file);
    for (const { line } of written) this.#remember(line);
    if (failed.length === 0) return;
    this.#checkTail = true;
    const { seq, prevHash, resumed } = failed[0].note.before;
    this.#seq = seq;
    this.#prevHash = prevHash;
    this.#resumed = resumed;
    for (const { note } of failed) this.#failed(note.fields, error);
  }

  #failed(fields: EntryFields, error: unknown): void {
    this.#init.logger.error("audit: entry not written; the chain stays at the previous entry", {
      path: this.#init.logPath,
      seq: this.#seq,
      tool: fields.tool,
      error: describeError(error),
    });
  }

  /** Once: continues the chain from an existing file and opens it for appending. */
  async #start(): Promise<void> {
    const path = this.#init.logPath;
    if (this.#closed) throw new Error("the audit log is closed");
    if (path === undefined || this.#file) return;
    if (!this.#started) {
      const tail = await readLogTail(path);
      if (tail) await this.#resume(tail.lines, tail.terminated);
      this.#started = true;
    }
    this.#file = await Deno.open(path, { append: true, create: true, mode: 0o600 });
  }

  async #resume(lines: string[], terminated: boolean): Promise<void> {
    if (lines.length === 0) return;
    const { logger } = this.#init;
    this.#checkTail = !terminated;
    let last = parseObject(lines.at(-1)!);
    if (!terminated && last === undefined) {
      logger.warning("audit: the log ends with a partial line (crash?); closing it", {
        path: this.#init.logPath,
      });
      last = lines.length > 1 ? parseObject(lines[0]) : undefined;
    }
    const seq = last?.seq;
    const signed = typeof last?.hmac === "string" && Number.isInteger(seq);
    if (this.#key && !signed) {
      logger.warning("audit: the log does not end with a signed entry; starting a new chain", {
        path: this.#init.logPath,
      });
      return;
    }
    if (!Number.isInteger(seq)) return;
    this.#seq = (seq as number) + 1;
    this.#resumed = true;
    if (!this.#key) return;
    this.#prevHash = last!.hmac as string;
    if (!(await entryVerifies(await this.#key, last!))) {
      logger.warning("audit: the last entry was signed with another key; verify the log with both keys", {
        path: this.#init.logPath,
        seq,
      });
    }
  }

  #remember(entry: string): void {
    const max = this.#init.maxMemoryEntries;
    if (max === 0) return;
    if (this.#ring.length < max) {
      this.#ring.push(entry);
      return;
    }
    this.#ring[this.#ringStart] = entry;
    this.#ringStart = (this.#ringStart + 1) % max;
  }
}

function writeAllSync(file: Deno.FsFile, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The chain state and file behind the audit middleware: builds, signs and appends entries one at a
 * time, and keeps the last ones in memory.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import type { Logger } from "../../_util/log.ts";
import { entryVerifies, GENESIS_HASH, hmacKey, signEntry } from "./_audit_crypto.ts";
import { endsWithNewline, readLogTail } from "./_log_tail.ts";
import { canonicalJson, type JsonValue, toCanonical } from "./canonical_json.ts";
import type { AuditEntry } from "./audit_middleware.ts";

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

/** An append-only audit chain, optionally backed by a file. */
export class AuditLog {
  #init: AuditLogInit;
  #key: Promise<CryptoKey> | undefined;
  #file: Deno.FsFile | undefined;
  #started = false;
  #checkTail = false;
  #seq = 0;
  #prevHash = GENESIS_HASH;
  #resumed = false;
  #ring: AuditEntry[] = [];
  #ringStart = 0;
  #lock: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(init: AuditLogInit) {
    this.#init = init;
    if (init.secret !== undefined) this.#key = hmacKey(init.secret);
  }

  /** Whether {@linkcode AuditLog.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Adds an entry with `fields` after every earlier one; never rejects (failures are logged). */
  append(fields: Record<string, unknown>): Promise<void> {
    const run = this.#lock.then(() => this.#append(fields));
    this.#lock = run;
    return run;
  }

  /** The entries kept in memory, oldest first. */
  entries(): readonly AuditEntry[] {
    return [...this.#ring.slice(this.#ringStart), ...this.#ring.slice(0, this.#ringStart)];
  }

  /** Waits for pending writes, then closes the file. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#lock;
    this.#file?.close();
    this.#file = undefined;
  }

  async #append(fields: Record<string, unknown>): Promise<void> {
    try {
      await this.#start();
      const entry: Record<string, unknown> = { ...fields, seq: this.#seq };
      if (this.#key) entry.prev_hash = this.#prevHash;
      if (this.#resumed) entry.resumed = true;
      const canonical = toCanonical(entry) as Record<string, JsonValue>;
      if (this.#key) canonical.hmac = await signEntry(await this.#key, canonical);
      if (this.#file) await this.#write(`${canonicalJson(canonical)}\n`);
      this.#seq++;
      this.#prevHash = typeof canonical.hmac === "string" ? canonical.hmac : GENESIS_HASH;
      this.#resumed = false;
      this.#remember(deepFreeze(canonical) as unknown as AuditEntry);
    } catch (error) {
      this.#init.logger.error("audit: entry not written; the chain stays at the previous entry", {
        path: this.#init.logPath,
        seq: this.#seq,
        tool: fields.tool,
        error: describeError(error),
      });
    }
  }

  /** Once: continues the chain from an existing file and opens it for appending. */
  async #start(): Promise<void> {
    const path = this.#init.logPath;
    if (path === undefined || this.#file) return;
    if (this.#closed) throw new Error("the audit log is closed");
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

  async #write(line: string): Promise<void> {
    const file = this.#file!;
    if (this.#checkTail) {
      if (!(await endsWithNewline(this.#init.logPath!))) await writeAll(file, encoder.encode("\n"));
      this.#checkTail = false;
    }
    try {
      await writeAll(file, encoder.encode(line));
    } catch (error) {
      this.#checkTail = true;
      throw error;
    }
  }

  #remember(entry: AuditEntry): void {
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

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
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

function deepFreeze(value: JsonValue): JsonValue {
  if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

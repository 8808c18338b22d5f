/**
 * The chain analysis behind {@linkcode verifyAuditLog}; the module doc of `audit_verify.ts` says how
 * each kind of tampering is recognised.
 *
 * @module
 */

import { GENESIS_HASH } from "./_audit_crypto.ts";
import type { LogLine } from "./_audit_read.ts";
import { ChainIndex, isAuthentic, isChainStart } from "./_chain_index.ts";
import type { AuditProblem } from "./audit_verify.ts";

/** The last accepted position of the chain. */
export interface Tip {
  /** Its `hmac` (for a `soft` tip, the claimed one). */
  hmac: string;
  /** Its `seq`. */
  seq: number;
  /** A slot taken by an entry that does not verify: the next entry may follow by position. */
  soft?: boolean;
  /** Nothing accepted yet, no anchor: expecting a chain start. */
  initial?: boolean;
  /** Nothing accepted yet, anchor not found: accept whatever comes. */
  free?: boolean;
}

/** Settings of a {@linkcode ChainWalk}. */
export interface ChainWalkOptions {
  /** The file paths, by index. */
  files: readonly string[];
  /** Hash to start from. */
  anchor?: string;
}

/** What a walk found. */
export interface ChainWalkResult {
  problems: AuditProblem[];
  warnings: AuditProblem[];
  entries: number;
  restarts: number;
  /** The last accepted authentic entry. */
  tip?: Tip;
}

type Kind = AuditProblem["kind"];

/** One pass over the lines of a log, classifying every break in the chain. */
export class ChainWalk {
  #lines: readonly LogLine[];
  #options: ChainWalkOptions;
  #found: Array<{ order: number; finding: AuditProblem; warning: boolean }> = [];
  #index: ChainIndex;
  #seen = new Set<string>();
  #explained = new Set<string>();
  #wrongKey = new Set<number>();
  /** Chains (by chain start index) spliced in from another log. */
  #foreign = new Set<number>();
  #tip: Tip = { hmac: GENESIS_HASH, seq: -1, initial: true };
  #last: Tip | undefined;
  #entries = 0;
  #restarts = 0;

  constructor(lines: readonly LogLine[], options: ChainWalkOptions) {
    this.#lines = lines;
    this.#options = options;
    this.#index = new ChainIndex(lines);
  }

  /** Walks every line once. */
  run(): ChainWalkResult {
    const start = this.#start();
    this.#findWrongKeyRuns(start);
    for (let index = start; index < this.#lines.length; index++) this.#step(index);
    const sorted = this.#found.sort((a, b) => a.order - b.order);
    return {
      problems: sorted.filter((item) => !item.warning).map((item) => item.finding),
      warnings: sorted.filter((item) => item.warning).map((item) => item.finding),
      entries: this.#entries,
      restarts: this.#restarts,
      tip: this.#last,
    };
  }

  #start(): number {
    const anchor = this.#options.anchor;
    if (anchor === undefined) return 0;
    for (const [index, line] of this.#lines.entries()) {
      if (!isAuthentic(line)) continue;
      if (line.prev === anchor) {
        this.#tip = { hmac: anchor, seq: line.seq! - 1 };
        return index;
      }
      if (line.hmac === anchor) {
        this.#tip = { hmac: anchor, seq: line.seq! };
        this.#last = this.#tip;
        this.#seen.add(anchor);
        return index + 1;
      }
    }
    this.#tip = { hmac: anchor, seq: -1, free: true };
    const finding: AuditProblem = {
      kind: "anchor_missing",
      file: this.#options.files[0],
      line: 0,
      detail: `anchor ${anchor} not found`,
    };
    this.#found.push({ order: -1, warning: false, finding });
    return 0;
  }

  /** Runs of entries no key verifies, bounded by restarts or the ends of the log. */
  #findWrongKeyRuns(start: number): void {
    const lines = this.#lines;
    const failing = (line: LogLine | undefined) => line?.kind === "entry" && line.keyIndex < 0;
    const restart = (line: LogLine | undefined) => line !== undefined && (line.resumed || isChainStart(line));
    for (let first = start; first < lines.length; first++) {
      if (!failing(lines[first])) continue;
      let last = first;
      while (failing(lines[last + 1])) last++;
      const opens = first === start || restart(lines[first]);
      const closes = last === lines.length - 1 ||
        (lines[last + 1].kind === "entry" && restart(lines[last + 1]));
      if (opens && closes) {
        for (let index = first; index <= last; index++) this.#wrongKey.add(index);
        const count = last - first + 1;
        const entries = count === 1 ? "1 entry" : `${count} entries`;
        const detail = `${entries} (to line ${lines[last].line}) verify with none of the keys: ` +
          "signed with a key not given, or edited";
        this.#report("wrong_key", first, { count, detail });
      }
      first = last;
    }
  }

  #step(index: number): void {
    const line = this.#lines[index];
    if (line.unterminated) {
      this.#report("truncated", index, {
        warning: true,
        detail: line.parsed ? "the last line lacks its newline" : "the last line was cut short (ignored)",
      });
      if (!line.parsed) return;
    }
    if (line.kind === "malformed") {
      const next = this.#lines[index + 1];
      const fragment = !line.parsed && isAuthentic(next) &&
        (this.#follows(next, this.#tip) || isChainStart(next));
      if (fragment) {
        this.#report("crash_fragment", index, { warning: true, detail: "a partial line left by a crash" });
      } else this.#report("malformed", index, { detail: `${line.reason}` });
      return;
    }
    this.#entries++;
    if (line.kind === "unsigned") return this.#report("unsigned", index, { detail: "entry has no hmac" });
    if (this.#wrongKey.has(index)) {
      this.#tip = { hmac: line.hmac!, seq: line.seq!, soft: true };
      return;
    }
    if (!isAuthentic(line)) return this.#unverified(index);
    this.#accept(index);
  }

  #unverified(index: number): void {
    const line = this.#lines[index];
    const next = this.#index.nextAuthentic(index);
    const tip = this.#tip;
    const taken = line.seq !== undefined && line.seq <= tip.seq;
    const extra = !tip.free && ((next !== undefined && this.#follows(next, tip)) || taken);
    if (line.kind === "bad_signature") {
      this.#report("bad_signature", index, { detail: "the hmac is not an HMAC-SHA256 hex digest" });
    } else if (extra) {
      const why = taken ? `its seq ${line.seq} is already taken` : "the chain runs around it";
      this.#report("inserted", index, { detail: `entry does not verify and ${why}` });
    } else {
      this.#report("modified", index, { detail: "entry does not verify: its content was changed" });
    }
    if (!extra) this.#tip = { hmac: line.hmac ?? "", seq: tip.seq + 1, soft: true };
  }

  #accept(index: number): void {
    const line = this.#lines[index];
    const hmac = line.hmac!;
    if (this.#seen.has(hmac)) {
      return this.#report("duplicate", index, { detail: "a copy of an earlier entry" });
    }
    this.#seen.add(hmac);
    if (this.#explained.has(hmac) || this.#foreign.has(this.#index.chainOf(index))) return;
    const tip = this.#tip;
    if (isChainStart(line) && !tip.initial && !tip.free) {
      if (!this.#reset(index)) return;
    } else if (!this.#follows(line, tip)) {
      const belongs = this.#index.known.has(line.prev!) || this.#index.referenced.has(hmac) ||
        line.prev === GENESIS_HASH;
      const next = this.#index.nextAuthentic(index);
      if (!belongs && next !== undefined && this.#follows(next, tip)) {
        return this.#report("inserted", index, { detail: "entry belongs to another chain" });
      }
      if (line.seq! <= tip.seq + 1) {
        const kind = belongs ? "reordered" : "inserted";
        return this.#report(kind, index, { detail: `entry seq ${line.seq} comes after seq ${tip.seq}` });
      }
      this.#gap(index);
    }
    if (line.resumed) this.#restarts++;
    this.#tip = { hmac, seq: line.seq! };
    this.#last = this.#tip;
  }

  /**
   * A new chain after the first; whether to take it as the tip. The writer starts one only at the top
   * of a new file or after a line that is not a signed entry: right after a signed entry it is another
   * log's chain spliced in, passed over whole when the current chain goes on after it.
   */
  #reset(index: number): boolean {
    const previous = this.#lines[index - 1];
    if (previous?.file !== this.#lines[index].file || previous.kind !== "entry") {
      this.#report("chain_reset", index, {
        warning: true,
        detail: "a new chain starts (seq 0, genesis hash)",
      });
      this.#restarts++;
      return true;
    }
    if (!this.#index.referenced.has(this.#tip.hmac)) {
      this.#report("inserted", index, { detail: "a second chain starts right after a signed entry" });
      return true;
    }
    const count = this.#index.chainLength(index);
    this.#foreign.add(index);
    this.#report("inserted", index, {
      count,
      detail: `another log's chain (${count === 1 ? "1 entry" : `${count} entries`}) spliced in`,
    });
    return false;
  }

  /** An authentic entry past `tip.seq + 1`: the positions between were moved later, or deleted. */
  #gap(index: number): void {
    const line = this.#lines[index];
    const from = this.#tip.seq + 1;
    const to = line.seq! - 1;
    const moved = this.#index.laterWithSeq(index, { from, to }, this.#seen);
    const missing = to - from + 1 - new Set(moved.map((other) => other.seq)).size;
    if (moved.length > 0) {
      for (const other of moved) this.#explained.add(other.hmac!);
      const where = moved.slice(0, 5).map((other) => other.line).join(", ");
      this.#report("reordered", index, {
        detail: `entry seq ${line.seq} comes before seq ${
          from === to ? from : `${from}–${to}`
        } (found later, line ${where})`,
      });
    }
    if (missing > 0) {
      const kind = this.#tip.initial ? "missing_start" : "deleted";
      const detail = this.#tip.initial
        ? `the log starts at seq ${line.seq}, not 0: earlier entries are missing (pass an anchor to start here)`
        : `${missing} entr${missing === 1 ? "y" : "ies"} missing before seq ${line.seq}`;
      this.#report(kind, index, { count: this.#tip.initial ? undefined : missing, detail });
    }
  }

  #follows(line: LogLine, tip: Tip): boolean {
    return tip.free === true || line.prev === tip.hmac || (tip.soft === true && line.seq === tip.seq + 1);
  }

  #report(kind: Kind, index: number, extra: { detail: string; count?: number; warning?: boolean }): void {
    const line = this.#lines[index];
    const finding: AuditProblem = {
      kind,
      file: this.#options.files[line.file],
      line: line.line,
      detail: extra.detail,
    };
    if (line.seq !== undefined) finding.seq = line.seq;
    if (extra.count !== undefined) finding.count = extra.count;
    this.#found.push({ order: index, warning: extra.warning === true, finding });
  }
}

/**
 * Lookups over all the lines of a log that the chain walk needs: which hashes exist, which are
 * linked to, the next authentic line, and authentic lines by chain and `seq`.
 *
 * @module
 */

import { GENESIS_HASH } from "./_audit_crypto.ts";
import type { LogLine } from "./_audit_read.ts";

/** Whether `line` starts a chain: `seq` 0 with the genesis `prev_hash`. */
export function isChainStart(line: LogLine): boolean {
  return line.seq === 0 && line.prev === GENESIS_HASH;
}

/** Whether `line` is an entry that one of the keys verifies. */
export function isAuthentic(line: LogLine | undefined): boolean {
  return line?.kind === "entry" && line.keyIndex >= 0;
}

/** Indexes built once over the lines of a log. */
export class ChainIndex {
  /** `hmac` of every authentic entry. */
  readonly known: ReadonlySet<string>;
  /** `prev_hash` of every authentic entry. */
  readonly referenced: ReadonlySet<string>;
  #lines: readonly LogLine[];
  #next: number[];
  #chain: number[];
  #bySeq = new Map<string, number[]>();

  constructor(lines: readonly LogLine[]) {
    this.#lines = lines;
    const known = new Map<string, number>();
    const referenced = new Set<string>();
    for (const [index, line] of lines.entries()) {
      if (!isAuthentic(line)) continue;
      if (!known.has(line.hmac!)) known.set(line.hmac!, index);
      referenced.add(line.prev!);
    }
    this.known = new Set(known.keys());
    this.referenced = referenced;
    this.#next = new Array(lines.length);
    let next = lines.length;
    for (let index = lines.length - 1; index >= 0; index--) {
      this.#next[index] = next;
      if (isAuthentic(lines[index])) next = index;
    }
    this.#chain = chainsOf(lines, known);
    for (const [index, line] of lines.entries()) {
      if (!isAuthentic(line)) continue;
      const key = `${this.#chain[index]}:${line.seq}`;
      const same = this.#bySeq.get(key);
      if (same) same.push(index);
      else this.#bySeq.set(key, [index]);
    }
  }

  /** The chain an authentic line belongs to: the index of its chain start (-1 when unknown). */
  chainOf(index: number): number {
    return this.#chain[index];
  }

  /** How many authentic lines belong to chain `root`. */
  chainLength(root: number): number {
    return this.#chain.filter((chain, index) => chain === root && isAuthentic(this.#lines[index])).length;
  }

  /** The first authentic line after `index`. */
  nextAuthentic(index: number): LogLine | undefined {
    return this.#lines[this.#next[index]];
  }

  /** Authentic lines after `index`, of its chain, with `seq` in `from..to` and an `hmac` not in `seen`. */
  laterWithSeq(index: number, range: { from: number; to: number }, seen: ReadonlySet<string>): LogLine[] {
    const chain = this.#chain[index];
    const { from, to } = range;
    const found: LogLine[] = [];
    const take = (later: number) => {
      const other = this.#lines[later];
      if (later > index && this.#chain[later] === chain && !seen.has(other.hmac!)) found.push(other);
    };
    if (to - from < this.#lines.length - index) {
      for (let seq = from; seq <= to; seq++) {
        for (const later of this.#bySeq.get(`${chain}:${seq}`) ?? []) take(later);
      }
    } else {
      for (let later = index + 1; later < this.#lines.length; later++) {
        const seq = this.#lines[later].seq!;
        if (isAuthentic(this.#lines[later]) && seq >= from && seq <= to) take(later);
      }
    }
    return found;
  }
}

/**
 * For each authentic line, the index of the chain start it descends from through `prev_hash` links;
 * when a link is missing (deleted entries, a log that starts mid-chain), the last chain start above
 * it in the file (-1 when none).
 */
function chainsOf(lines: readonly LogLine[], known: ReadonlyMap<string, number>): number[] {
  const above: number[] = [];
  let lastStart = -1;
  for (const [index, line] of lines.entries()) {
    if (isAuthentic(line) && isChainStart(line)) lastStart = index;
    above.push(lastStart);
  }
  const chain: Array<number | undefined> = new Array(lines.length).fill(undefined);
  for (const [index, line] of lines.entries()) {
    if (!isAuthentic(line) || chain[index] !== undefined) continue;
    const path: number[] = [];
    const visited = new Set<number>();
    let at = index;
    let root: number | undefined;
    while (root === undefined) {
      if (chain[at] !== undefined) root = chain[at];
      else if (isChainStart(lines[at])) root = at;
      else {
        path.push(at);
        visited.add(at);
        const pred = known.get(lines[at].prev!);
        if (pred === undefined || visited.has(pred)) root = above[at];
        else at = pred;
      }
    }
    if (isChainStart(lines[at])) chain[at] = root;
    for (const step of path) chain[step] = root;
  }
  return chain as number[];
}

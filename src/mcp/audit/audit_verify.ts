/**
 * Verifies audit logs written by {@linkcode auditMiddleware}: every signature, and the chain that
 * links each entry to the one before it.
 *
 * How tampering is told apart. An entry whose HMAC verifies under one of the keys is authentic: its
 * `seq`, `prev_hash` and `hmac` are what the writer wrote. The verifier walks the lines in order,
 * keeping the last accepted entry (the tip); an authentic entry that names the tip's `hmac` as its
 * `prev_hash` simply follows it. Anything else is classified:
 *
 * - edited field (`modified`): the line no longer verifies, but it sits in a slot of the chain (the
 *   next authentic entry does not link back to the tip, so something belongs here). The chain
 *   resumes after it by position.
 * - inserted line (`inserted`): a line that fails verification, or an authentic entry foreign to this
 *   log, while the next authentic entry still links to the tip (the chain runs around it); or a line
 *   that fails verification and claims a `seq` the chain has already passed (a forged copy); or a
 *   second chain start right after a signed entry of the same file (the writer starts a new chain
 *   only at the top of a file or after a non-signed line).
 * - swapped or moved lines (`reordered`): an authentic entry jumps ahead of the tip's `seq + 1`, and
 *   the skipped positions turn up later in the same chain; they are reported once, at the jump, and
 *   passed over when they come. An authentic entry that belongs to the log but arrives after its
 *   successors is reordered too.
 * - deleted lines (`deleted`, with `count`): the jump's skipped positions appear nowhere.
 * - a copied line (`duplicate`): an `hmac` already seen.
 * - `missing_start`: without an anchor, the first entry is not `seq` 0 with the genesis `prev_hash`.
 * - `wrong_key`: a run of entries none of the keys verifies, bounded by restarts (or the whole log):
 *   a log, or part of one between restarts, signed with a key not given. A single edited entry inside
 *   such a segment cannot be told from this and is reported as `wrong_key` too.
 * - `malformed` (not a JSON object, or no valid `seq`/`prev_hash`), `unsigned` (no `hmac`),
 *   `bad_signature` (an `hmac` that is not 64 hex characters).
 *
 * Warnings (the log is still intact): `truncated` (a file's last line lacks its newline: a write cut
 * short), `crash_fragment` (a line that is not JSON, right before an entry that continues the chain:
 * a write cut short by a crash, closed at restart), `chain_reset` (a new chain, `seq` 0 with the
 * genesis hash, after the first: the writer restarted after a non-signed line). Deleting the newest
 * entries cannot be seen inside the log: keep `lastHash` and pass it later as `anchor`.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import { GENESIS_HASH, hmacKey } from "./_audit_crypto.ts";
import { readLogLines } from "./_audit_read.ts";
import { ChainWalk } from "./_chain_walk.ts";

/** A problem found by {@linkcode verifyAuditLog}. */
export type AuditProblemKind =
  | "modified"
  | "inserted"
  | "duplicate"
  | "reordered"
  | "deleted"
  | "missing_start"
  | "malformed"
  | "unsigned"
  | "bad_signature"
  | "wrong_key"
  | "anchor_missing";

/** A warning: the log is intact, but something happened worth knowing. */
export type AuditWarningKind = "truncated" | "crash_fragment" | "chain_reset";

/** One finding, tied to a line. */
export interface AuditProblem {
  /** What was found. */
  kind: AuditProblemKind | AuditWarningKind;
  /** The file, as given. */
  file: string;
  /** Line number from 1 (0: not tied to a line). */
  line: number;
  /** The `seq` the line claims, when it has one. */
  seq?: number;
  /** How many entries: deleted ones, those of a `wrong_key` run, or of a spliced-in chain. */
  count?: number;
  /** A sentence for people. */
  detail: string;
}

/** The outcome of {@linkcode verifyAuditLog}. */
export interface AuditReport {
  /** No problems (warnings allowed). */
  ok: boolean;
  /** JSON object lines checked (after the anchor, when given). */
  entries: number;
  /** Problems, in file order. */
  problems: AuditProblem[];
  /** Warnings, in file order. */
  warnings: AuditProblem[];
  /** The first problem. */
  firstProblem?: AuditProblem;
  /** Intact, and one chain from start (or anchor) to end, restarts included, without resets. */
  continuous: boolean;
  /** Restarts seen: entries with `resumed: true`, and chain resets. */
  restarts: number;
  /** `hmac` of the last accepted entry: keep it, and pass it as `anchor` next time. */
  lastHash: string | null;
  /** `seq` of the last accepted entry. */
  lastSeq: number | null;
  /** Whether a file ends with an unterminated line. */
  truncated: boolean;
}

/** Options for {@linkcode verifyAuditLog}. */
export interface VerifyAuditOptions {
  /** HMAC secrets: the current one first; older ones verify entries written before a key change. */
  keys: readonly string[];
  /**
   * Start mid-log: the `prev_hash` of the first entry to check (or the `hmac` of the last entry
   * checked before, i.e. an earlier report's `lastHash`).
   */
  anchor?: string;
}

const VERIFY_KEYS = { keys: true, anchor: true } satisfies Record<keyof VerifyAuditOptions, true>;

/**
 * Verifies one audit log, or several files of one log in order (rotated files, oldest first).
 *
 * @throws {TypeError} for bad options; the file system's error when a file cannot be read.
 *
 * @example
 * ```ts
 * import { verifyAuditLog } from "./audit_verify.ts";
 * const report = await verifyAuditLog("audit.jsonl", { keys: ["s3cret"] });
 * if (!report.ok) console.error(report.firstProblem);
 * ```
 */
export async function verifyAuditLog(
  paths: string | readonly string[],
  options: VerifyAuditOptions,
): Promise<AuditReport> {
  const files = typeof paths === "string" ? [paths] : [...paths];
  checkOptions(files, options);
  const keys = await Promise.all(options.keys.map(hmacKey));
  const lines = await readLogLines(files, keys);
  const walk = new ChainWalk(lines, { files, anchor: options.anchor });
  const { problems, warnings, entries, restarts, tip } = walk.run();
  return {
    ok: problems.length === 0,
    entries,
    problems,
    warnings,
    ...(problems.length > 0 ? { firstProblem: problems[0] } : {}),
    continuous: problems.length === 0 && !warnings.some((warning) => warning.kind === "chain_reset"),
    restarts,
    lastHash: tip?.hmac ?? null,
    lastSeq: tip?.seq ?? null,
    truncated: warnings.some((warning) => warning.kind === "truncated"),
  };
}

/** The hash a chain starts from: 64 zeros. */
export const AUDIT_GENESIS_HASH: string = GENESIS_HASH;

function checkOptions(files: string[], options: VerifyAuditOptions): void {
  checkOptionKeys(options, {
    owner: "verifyAuditLog",
    keys: VERIFY_KEYS,
    unknown: "listed",
    notObject: "verifyAuditLog: options needed",
    arrays: true,
  });
  if (files.length === 0 || files.some((file) => typeof file !== "string" || file === "")) {
    throw new TypeError("verifyAuditLog: give at least one file path");
  }
  if (!Array.isArray(options.keys) || options.keys.length === 0) {
    throw new TypeError("verifyAuditLog: give at least one key");
  }
  if (options.keys.some((key) => typeof key !== "string" || key === "")) {
    throw new TypeError("verifyAuditLog: keys must be non-empty strings");
  }
  if (options.anchor !== undefined && !/^[0-9a-f]{64}$/.test(options.anchor)) {
    throw new TypeError("verifyAuditLog: anchor must be 64 lower-case hex characters");
  }
}

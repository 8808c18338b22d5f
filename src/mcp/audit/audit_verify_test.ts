import assert from "node:assert/strict";
import { join } from "node:path";
import { createHmac } from "node:crypto";
import { GENESIS_HASH } from "./_audit_crypto.ts";
import { canonicalJson } from "./canonical_json.ts";
import { readLines, saveLines, SECRET, tempDir, writeLog } from "./_test_audit.ts";
import { type AuditReport, verifyAuditLog, type VerifyAuditOptions } from "./audit_verify.ts";

type Edit = (lines: string[]) => string[] | Promise<string[]>;

/** A six-entry log (seq 0–5), edited, then verified. */
async function verifyEdited(edit: Edit, options: Partial<VerifyAuditOptions> = {}): Promise<AuditReport> {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 6);
  await saveLines(path, await edit(await readLines(path)));
  return await verifyAuditLog(path, { keys: [SECRET], ...options });
}

const kinds = (report: AuditReport) => report.problems.map((p) => [p.kind, p.line, p.seq]);
const edited = (line: string, change: Record<string, unknown>) =>
  JSON.stringify({ ...JSON.parse(line), ...change });

Deno.test("an untouched log verifies, with its last hash and seq", async () => {
  const report = await verifyEdited((lines) => lines);
  assert.equal(report.ok, true);
  assert.equal(report.continuous, true);
  assert.equal(report.entries, 6);
  assert.equal(report.lastSeq, 5);
  assert.match(report.lastHash!, /^[0-9a-f]{64}$/);
  assert.deepEqual([report.problems, report.warnings, report.firstProblem, report.truncated], [
    [],
    [],
    undefined,
    false,
  ]);
});

Deno.test("an edited field is reported as modified at its line", async () => {
  const report = await verifyEdited((lines) => lines.with(2, edited(lines[2], { status: "error" })));
  assert.equal(report.ok, false);
  assert.deepEqual(kinds(report), [["modified", 3, 2]]);
  assert.deepEqual(report.firstProblem, report.problems[0]);
  const rehashed = await verifyEdited((lines) =>
    lines.with(2, edited(lines[2], { tool: "x", hmac: "a".repeat(64) }))
  );
  assert.deepEqual(kinds(rehashed), [["modified", 3, 2]]);
});

Deno.test("two swapped lines are reported once as reordered", async () => {
  const report = await verifyEdited((lines) => [lines[0], lines[1], lines[3], lines[2], lines[4], lines[5]]);
  assert.deepEqual(kinds(report), [["reordered", 3, 3]]);
  const moved = await verifyEdited((lines) => [lines[0], lines[2], lines[3], lines[4], lines[1], lines[5]]);
  assert.deepEqual(kinds(moved), [["reordered", 2, 2]]);
});

Deno.test("deleted lines are reported with their count at the line after the gap", async () => {
  const one = await verifyEdited((lines) => lines.toSpliced(2, 1));
  assert.deepEqual(one.problems.map((p) => [p.kind, p.line, p.seq, p.count]), [["deleted", 3, 3, 1]]);
  const two = await verifyEdited((lines) => lines.toSpliced(1, 2));
  assert.deepEqual(two.problems.map((p) => [p.kind, p.count]), [["deleted", 2]]);
  const nextToLast = await verifyEdited((lines) => lines.toSpliced(4, 1));
  assert.deepEqual(nextToLast.problems.map((p) => [p.kind, p.seq, p.count]), [["deleted", 5, 1]]);
});

Deno.test("an inserted line is reported as inserted, whether forged or taken from another log", async () => {
  const forged = await verifyEdited((lines) =>
    lines.toSpliced(3, 0, edited(lines[2], { request_id: "evil" }))
  );
  assert.deepEqual(kinds(forged), [["inserted", 4, 2]]);
  const appended = await verifyEdited((lines) => [...lines, edited(lines[5], { request_id: "evil" })]);
  assert.deepEqual(kinds(appended), [["inserted", 7, 5]]);
  await using dir = await tempDir();
  const other = join(dir.path, "other.jsonl");
  await writeLog(other, 3, { includeArgs: true });
  const foreignLines = await readLines(other);
  const foreign = foreignLines[2];
  const report = await verifyEdited((lines) => lines.toSpliced(4, 0, foreign));
  assert.deepEqual(kinds(report), [["inserted", 5, 2]]);
  const prepended = await verifyEdited((lines) => [foreignLines[0], ...lines]);
  assert.deepEqual(kinds(prepended), [["inserted", 2, 0]]);
});

Deno.test("a copied line is a duplicate", async () => {
  const report = await verifyEdited((lines) => lines.toSpliced(3, 0, lines[1]));
  assert.deepEqual(kinds(report), [["duplicate", 4, 1]]);
});

Deno.test("unsigned, badly signed and malformed lines are reported", async () => {
  const unsigned = await verifyEdited((lines) => lines.toSpliced(2, 0, '{"seq":2,"tool":"echo"}'));
  assert.deepEqual(kinds(unsigned), [["unsigned", 3, 2]]);
  const badSignature = await verifyEdited((lines) => lines.with(2, edited(lines[2], { hmac: "nope" })));
  assert.deepEqual(kinds(badSignature), [["bad_signature", 3, 2]]);
  const replaced = await verifyEdited((lines) => lines.with(2, "[1,2]"));
  assert.deepEqual(replaced.problems.map((p) => p.kind), ["malformed", "deleted"]);
});

Deno.test("a log signed with a key not given is reported once as wrong_key; older keys verify", async () => {
  const report = await verifyEdited((lines) => lines, { keys: ["not-the-key"] });
  assert.deepEqual(report.problems.map((p) => [p.kind, p.line, p.count]), [["wrong_key", 1, 6]]);
  assert.equal(report.lastHash, null);
  assert.equal((await verifyEdited((lines) => lines, { keys: ["new-key", SECRET] })).ok, true);
});

Deno.test("a missing start is reported unless an anchor says where to begin", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 6);
  const lines = await readLines(path);
  const anchor = JSON.parse(lines[0]).hmac;
  const fromMiddle = await verifyAuditLog(path, { keys: [SECRET], anchor });
  assert.deepEqual([fromMiddle.ok, fromMiddle.entries], [true, 5]);
  await saveLines(path, lines.slice(1));
  const report = await verifyAuditLog(path, { keys: [SECRET] });
  assert.deepEqual(kinds(report), [["missing_start", 1, 1]]);
  const anchored = await verifyAuditLog(path, { keys: [SECRET], anchor });
  assert.deepEqual([anchored.ok, anchored.entries, anchored.continuous], [true, 5, true]);
  const lost = await verifyAuditLog(path, { keys: [SECRET], anchor: "f".repeat(64) });
  assert.deepEqual(lost.problems.map((p) => [p.kind, p.line]), [["anchor_missing", 0]]);
});

Deno.test("an anchor equal to the last hash verifies a log with nothing new", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 3);
  const first = await verifyAuditLog(path, { keys: [SECRET] });
  const again = await verifyAuditLog(path, { keys: [SECRET], anchor: first.lastHash! });
  assert.deepEqual([again.ok, again.entries, again.lastHash], [true, 0, first.lastHash]);
});

Deno.test("a cut-off last line is a truncated warning; a crash fragment inside the log is a warning too", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 3);
  const lines = await readLines(path);
  await saveLines(path, [...lines, '{"seq":3,"to'], false);
  const cut = await verifyAuditLog(path, { keys: [SECRET] });
  assert.deepEqual([cut.ok, cut.truncated, cut.entries, cut.lastSeq], [true, true, 3, 2]);
  assert.deepEqual(cut.warnings.map((w) => [w.kind, w.line]), [["truncated", 4]]);
  await saveLines(path, lines.toSpliced(2, 0, '{"seq":2,"to'));
  const fragment = await verifyAuditLog(path, { keys: [SECRET] });
  assert.deepEqual([fragment.ok, fragment.truncated], [true, false]);
  assert.deepEqual(fragment.warnings.map((w) => [w.kind, w.line]), [["crash_fragment", 3]]);
});

Deno.test("a log split over files verifies as one chain, in the order given", async () => {
  await using dir = await tempDir();
  const [old, current] = [join(dir.path, "audit.1.jsonl"), join(dir.path, "audit.jsonl")];
  await writeLog(old, 2);
  await Deno.copyFile(old, current);
  await writeLog(current, 2);
  await saveLines(current, (await readLines(current)).slice(2));
  const report = await verifyAuditLog([old, current], { keys: [SECRET] });
  assert.deepEqual([report.ok, report.continuous, report.entries, report.restarts], [true, true, 4, 1]);
  const wrongOrder = await verifyAuditLog([current, old], { keys: [SECRET] });
  assert.equal(wrongOrder.ok, false);
  assert.equal(wrongOrder.problems[0].file, current);
});

Deno.test("a new chain at the top of a file or after a non-signed line is a chain_reset warning", async () => {
  await using dir = await tempDir();
  const [first, second] = [join(dir.path, "a.jsonl"), join(dir.path, "b.jsonl")];
  await writeLog(first, 3);
  await writeLog(second, 2);
  const report = await verifyAuditLog([first, second], { keys: [SECRET] });
  assert.deepEqual([report.ok, report.continuous, report.restarts, report.lastSeq], [true, false, 1, 1]);
  assert.deepEqual(report.warnings.map((w) => [w.kind, w.file, w.line]), [["chain_reset", second, 1]]);
  const entry = { seq: 0, prev_hash: GENESIS_HASH, tool: "echo", status: "ok" };
  const restart = JSON.stringify({
    ...entry,
    hmac: createHmac("sha256", SECRET).update(canonicalJson(entry)).digest("hex"),
  });
  await saveLines(first, [...await readLines(first), '{"seq":3,"tool":"echo"}', restart]);
  const afterUnsigned = await verifyAuditLog(first, { keys: [SECRET] });
  assert.deepEqual(afterUnsigned.problems.map((p) => [p.kind, p.line]), [["unsigned", 4]]);
  assert.deepEqual(afterUnsigned.warnings.map((w) => [w.kind, w.line]), [["chain_reset", 5]]);
});

Deno.test("verifyAuditLog refuses bad options and unreadable files", async () => {
  await assert.rejects(verifyAuditLog("x", { keys: [] }), TypeError);
  await assert.rejects(verifyAuditLog([], { keys: ["k"] }), TypeError);
  await assert.rejects(verifyAuditLog("x", { keys: ["k"], anchor: "short" }), TypeError);
  await assert.rejects(verifyAuditLog("x", { keys: ["k"], key: "k" } as never), /unknown option 'key'/);
  await assert.rejects(verifyAuditLog("/nonexistent/audit.jsonl", { keys: ["k"] }), Deno.errors.NotFound);
});

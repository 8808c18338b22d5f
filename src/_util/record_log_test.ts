import assert from "node:assert/strict";
import { RecordLog } from "./record_log.ts";
import { tempDir } from "./temp_dir.ts";

type Item = { n: number; note?: string };
const parse = (value: unknown): Item => {
  if (typeof value !== "object" || value === null || typeof (value as Item).n !== "number") {
    throw new Error("not an item");
  }
  return value as Item;
};

Deno.test("puts, patches and deletes come back after reopening, in first-put order", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/items.jsonl`;
  const { log } = await RecordLog.open({ path, parse });
  await log.put("b", { n: 1 });
  await log.put("a", { n: 2 });
  await log.patch("b", { note: "seen" });
  await log.put("c", { n: 3 });
  await log.delete("a");
  await log.patch("missing", { note: "ignored" });
  await log.close();
  const { log: again, problems } = await RecordLog.open({ path, parse });
  assert.deepEqual(problems, []);
  assert.deepEqual(again.values(), [{ n: 1, note: "seen" }, { n: 3 }]);
  assert.equal(again.size, 2);
  assert.equal(again.has("a"), false);
});

Deno.test("a torn or foreign line is reported and skipped; the rest is read", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/items.jsonl`;
  await Deno.writeTextFile(
    path,
    '{"op":"put","key":"a","value":{"n":1}}\n{"op":"put","key":"b","value":{"x":1}}\n{"op":"put","ke',
  );
  const { log, problems } = await RecordLog.open({ path, parse });
  assert.deepEqual(problems, [
    "items.jsonl line 2: not a record of this log",
    "items.jsonl line 3: not JSON (a torn write?)",
  ]);
  await log.put("c", { n: 3 });
  await log.close();
  const { log: again } = await RecordLog.open({ path, parse });
  assert.deepEqual(again.values(), [{ n: 1 }, { n: 3 }]);
});

Deno.test("compaction rewrites a long log to its live records without losing changes", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/items.jsonl`;
  const { log } = await RecordLog.open({ path, parse, compactAfter: 10 });
  await log.put("keep", { n: 0 });
  for (let i = 0; i < 50; i++) {
    await log.put(`tmp${i}`, { n: i });
    await log.delete(`tmp${i}`);
  }
  await log.put("last", { n: 99 });
  await log.close();
  const lines = (await Deno.readTextFile(path)).trim().split("\n");
  assert.ok(lines.length < 12, `expected a compacted log, got ${lines.length} lines`);
  const { log: again } = await RecordLog.open({ path, parse });
  assert.deepEqual(again.values(), [{ n: 0 }, { n: 99 }]);
});

Deno.test("a log without a path keeps records in memory and destroy removes the file", async () => {
  const { log } = await RecordLog.open({ parse });
  await log.put("a", { n: 1 });
  assert.deepEqual(log.get("a"), { n: 1 });
  await log.destroy();
  assert.equal(log.size, 0);
  await using dir = await tempDir();
  const path = `${dir.path}/items.jsonl`;
  const { log: onDisk } = await RecordLog.open({ path, parse, sync: true });
  await onDisk.put("a", { n: 1 });
  await onDisk.destroy();
  await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
});

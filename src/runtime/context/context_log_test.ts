import assert from "node:assert/strict";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { tempDir } from "../../_util/temp_dir.ts";
import { isRuntimeError } from "../errors.ts";
import { Spool } from "../spool.ts";
import { type ContextSettings, ContextStore } from "./context_store.ts";

const SETTINGS: ContextSettings = { writable_keys: ["a", "b", "big"], initial_state: { a: 0 } };

/** A store on the spool in `dir` (process `p`), after an optional journal recovery. */
async function opened(dir: string, options: { settings?: ContextSettings; journal?: ProcessJournal } = {}) {
  const spool = new Spool({ dir });
  const context = new ContextStore({
    settings: () => options.settings ?? SETTINGS,
    journal: options.journal,
  });
  if (options.journal) context.recover(await options.journal.read());
  await context.openSpool(spool.forProcess("p"));
  return { context, spool };
}

function readLog(dir: string): Promise<string> {
  return Deno.readTextFile(`${dir}/p/context.jsonl`).catch(() => "");
}

Deno.test("a write is in the spool when it resolves and a new store on the same spool starts from it", async () => {
  await using dir = await tempDir();
  const { context, spool } = await opened(dir.path);
  await context.write({ a: 1, b: { list: [1, 2] } }, "api");
  await context.write({ a: null }, "agent");
  assert.match(await readLog(dir.path), /"list":\[1,2\]/); // written before the write resolved, not at close
  await spool.close();
  const { context: again, spool: spool2 } = await opened(dir.path);
  assert.deepEqual(again.snapshot(), { b: { list: [1, 2] } });
  await spool2.close();
});

Deno.test("a denied or invalid write writes nothing to the spool", async () => {
  await using dir = await tempDir();
  const { context, spool } = await opened(dir.path);
  await assert.rejects(context.write({ a: 1, other: 2 }, "api"), (e) => isRuntimeError(e, "WRITE_DENIED"));
  await assert.rejects(context.write({ a: Number.NaN }, "api"), (e) => isRuntimeError(e, "CONTEXT_INVALID"));
  await assert.rejects(
    context.write({ big: "x".repeat(300 * 1024) }, "api"),
    (e) => isRuntimeError(e, "CONTEXT_INVALID"),
  );
  await spool.close();
  assert.equal(await readLog(dir.path), "");
});

Deno.test("a write whose spool write fails is refused and the state stays as it was", async () => {
  await using dir = await tempDir();
  const { context, spool } = await opened(dir.path);
  await context.write({ a: 1 }, "api");
  await spool.close();
  const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level: "checkpoint" });
  const { context: again, spool: spool2 } = await opened(dir.path, { journal });
  await Deno.remove(`${dir.path}/p/context.jsonl`);
  await Deno.mkdir(`${dir.path}/p/context.jsonl`); // a directory where the log is: the next write fails
  await assert.rejects(again.write({ a: 2, b: "lost" }, "api"));
  assert.deepEqual(again.snapshot(), { a: 1 });
  assert.deepEqual(await journal.read({ type: "context_update" }), []);
  await assert.rejects(again.restore({ a: 3 }));
  assert.deepEqual(again.snapshot(), { a: 1 });
  await Deno.remove(`${dir.path}/p/context.jsonl`);
  await again.write({ b: "kept" }, "api"); // a later write builds on the state, not on the refused one
  assert.deepEqual(again.snapshot(), { a: 1, b: "kept" });
  await spool2.close();
  const { context: third, spool: spool3 } = await opened(dir.path);
  assert.deepEqual(third.snapshot(), { a: 1, b: "kept" });
  await spool3.close();
});

Deno.test("reset and restore are kept in the spool", async () => {
  await using dir = await tempDir();
  const { context, spool } = await opened(dir.path);
  await context.write({ a: 5, b: 6 }, "api");
  await context.restore({ a: 7 });
  await spool.close();
  const { context: again, spool: spool2 } = await opened(dir.path);
  assert.deepEqual(again.snapshot(), { a: 7 });
  await again.reset();
  await spool2.close();
  const settings = { initial_state: { a: "new initial" } };
  const { context: third, spool: spool3 } = await opened(dir.path, { settings });
  assert.deepEqual(third.snapshot(), { a: 0 }); // the reset state, kept, not the new initial_state
  await spool3.close();
});

Deno.test("concurrent writes apply in call order, each kept as a whole state", async () => {
  await using dir = await tempDir();
  const { context, spool } = await opened(dir.path);
  await Promise.all([
    context.write({ a: 1 }, "api"),
    context.write({ b: 2 }, "agent"),
    context.write({ a: 3 }, "api"),
  ]);
  assert.deepEqual(context.snapshot(), { a: 3, b: 2 });
  await spool.close();
  const { context: again, spool: spool2 } = await opened(dir.path);
  assert.deepEqual(again.snapshot(), { a: 3, b: 2 });
  await spool2.close();
});

Deno.test("without a spool record a journal-recovered state is written to the spool; with one the spool wins", async () => {
  await using dir = await tempDir();
  const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level: "checkpoint" });
  await journal.record("checkpoint", { context: { a: "from journal" } });
  const { context, spool } = await opened(dir.path, { journal });
  assert.deepEqual(context.snapshot(), { a: "from journal" });
  await spool.close();
  assert.match(await readLog(dir.path), /from journal/);
  await journal.record("context_update", { values: { a: "newer in the journal only" }, source: "api" });
  const { context: again, spool: spool2 } = await opened(dir.path, { journal });
  assert.deepEqual(again.snapshot(), { a: "from journal" });
  await spool2.close();
});

Deno.test("with nothing to recover nothing is written and a new initial_state applies", async () => {
  await using dir = await tempDir();
  const { context, spool } = await opened(dir.path);
  assert.deepEqual(context.snapshot(), { a: 0 });
  await spool.close();
  assert.equal(await readLog(dir.path), "");
  const { context: again, spool: spool2 } = await opened(dir.path, { settings: { initial_state: { a: 9 } } });
  assert.deepEqual(again.snapshot(), { a: 9 });
  await spool2.close();
});

Deno.test("the context log is compacted to its last state", async () => {
  await using dir = await tempDir();
  const { context, spool } = await opened(dir.path);
  for (let n = 1; n <= 40; n++) await context.write({ a: n }, "api");
  await spool.close();
  const lines = (await readLog(dir.path)).trim().split("\n");
  assert.ok(lines.length <= 17, `${lines.length} lines`);
  const { context: again, spool: spool2 } = await opened(dir.path);
  assert.deepEqual(again.snapshot(), { a: 40 });
  await spool2.close();
});

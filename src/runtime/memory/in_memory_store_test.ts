import assert from "node:assert/strict";
import { InMemoryStore } from "./in_memory_store.ts";

Deno.test("search answers the most relevant memories first, at most limit, above minScore", async () => {
  const memory = new InMemoryStore();
  const deploy = await memory.add("The deploy window is Tuesday morning", { topic: "ops" });
  await memory.add("Lunch is at noon on Tuesday");
  await memory.add("Invoices are sent on the first of the month");
  const hits = await memory.search("when is the deploy window?");
  assert.equal(hits[0].id, deploy);
  assert.deepEqual(hits[0].metadata, { topic: "ops" });
  assert.ok(hits.every((h, i) => i === 0 || h.score <= hits[i - 1].score));
  assert.ok(!hits.some((h) => h.text.startsWith("Invoices")));
  assert.equal((await memory.search("tuesday", { limit: 1 })).length, 1);
  const strict = await memory.search("deploy tuesday lunch", { minScore: 0.99 });
  assert.deepEqual(strict, []);
  await assert.rejects(memory.search("x", { limit: 0 }), RangeError);
  await assert.rejects(memory.search("x", { minScore: 2 }), RangeError);
  await memory.close();
});

Deno.test("ties go to the newest memory; delete forgets; size counts; a closed store rejects", async () => {
  const memory = new InMemoryStore();
  const older = await memory.add("backup runs nightly");
  const newer = await memory.add("backup runs nightly");
  assert.deepEqual((await memory.search("backup")).map((h) => h.id), [newer, older]);
  assert.equal(await memory.delete(newer), true);
  assert.equal(await memory.delete(newer), false);
  assert.equal(memory.size(), 1);
  await assert.rejects(memory.add(""), TypeError);
  await memory.close();
  await assert.rejects(memory.add("late"), /closed/);
});

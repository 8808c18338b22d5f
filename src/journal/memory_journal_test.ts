import assert from "node:assert/strict";
import { journalContract } from "./_test_journal_contract.ts";
import { MemoryJournal } from "./memory_journal.ts";

journalContract("memory", () => {
  const journal = new MemoryJournal();
  return Promise.resolve({ journal, [Symbol.asyncDispose]: () => journal.close() });
});

Deno.test("memory journal drops the oldest entries of a process beyond maxEntriesPerProcess", async () => {
  const journal = new MemoryJournal({ maxEntriesPerProcess: 3 });
  try {
    for (let i = 0; i < 5; i++) await journal.append("writer", "step", { i });
    await journal.append("other", "step", { i: 0 });
    assert.deepEqual((await journal.read("writer")).map((e) => e.data.i), [2, 3, 4]);
    assert.equal((await journal.read("other")).length, 1);
  } finally {
    await journal.close();
  }
});

Deno.test("memory journal rejects a bound that is not a positive integer", () => {
  assert.throws(() => new MemoryJournal({ maxEntriesPerProcess: 0 }), RangeError);
  assert.throws(() => new MemoryJournal({ maxEntriesPerProcess: 2.5 }), RangeError);
});

import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { MemoryJournal } from "./memory_journal.ts";
import { FULL_ONLY_ENTRY_TYPES, ProcessJournal } from "./process_journal.ts";
import type { Journal, JournalEntry } from "./types.ts";

const FULL_ONLY = ["trigger_event", "invocation_start", "tool_call", "tool_result", "model_turn"];

Deno.test("process journal at checkpoint level skips full-only entry types and writes the rest", async () => {
  const memory = new MemoryJournal();
  const journal = new ProcessJournal(memory, { process: "writer", level: "checkpoint" });
  for (const type of FULL_ONLY) assert.equal(await journal.record(type, {}), undefined, type);
  const written = await journal.record("state_transition", { to: "running" });
  assert.equal(written?.process, "writer");
  assert.deepEqual((await journal.read()).map((e) => e.entry_type), ["state_transition"]);
  assert.deepEqual(await memory.read("writer"), await journal.read());
  await memory.close();
});

Deno.test("process journal at full level writes every entry type", async () => {
  const memory = new MemoryJournal();
  const journal = new ProcessJournal(memory, { process: "writer", level: "full" });
  for (const type of [...FULL_ONLY, "state_transition"]) assert.ok(await journal.record(type, {}), type);
  assert.deepEqual((await journal.read()).map((e) => e.entry_type), [...FULL_ONLY, "state_transition"]);
  assert.deepEqual((await journal.read({ type: "tool_call", limit: 1 })).length, 1);
  await memory.close();
});

Deno.test("process journal exposes its level, process, backend and entries by id", async () => {
  const memory = new MemoryJournal();
  const journal = new ProcessJournal(memory, { process: "writer", level: "full" });
  assert.equal(journal.level, "full");
  assert.equal(journal.process, "writer");
  assert.equal(journal.backend, "memory");
  const entry = await journal.record("tool_call", { tool: "search" });
  assert.ok(entry);
  assert.deepEqual(await journal.get(entry.entry_id), entry);
  assert.deepEqual([...FULL_ONLY_ENTRY_TYPES].sort(), [...FULL_ONLY].sort());
  await memory.close();
});

Deno.test("process journal refuses the none level", () => {
  assert.throws(
    () => new ProcessJournal(new MemoryJournal(), { process: "writer", level: "none" }),
    /"none"/,
  );
});

Deno.test("process journal record resolves undefined and logs one warning when the journal fails", async () => {
  const sink = memorySink();
  const failing: Journal = {
    backend: "file",
    append: (): Promise<JournalEntry> => Promise.reject(new Error("disk full")),
    read: () => Promise.resolve([]),
    get: () => Promise.resolve(undefined),
    close: () => Promise.resolve(),
  };
  const logger = new Logger("agentry.journal", { sink });
  const journal = new ProcessJournal(failing, { process: "writer", level: "checkpoint", logger });
  assert.equal(await journal.record("state_transition", { to: "running" }), undefined);
  assert.equal(sink.records.length, 1);
  const [record] = sink.records;
  assert.equal(record.level, "warning");
  assert.equal(record.logger, "agentry.journal");
  assert.equal(record.fields.process, "writer");
  assert.equal(record.fields.entry_type, "state_transition");
  assert.match(String(record.fields.error), /disk full/);
});

Deno.test("process journal record does not reject on a closed journal or unserialisable data", async () => {
  const sink = memorySink();
  const memory = new MemoryJournal();
  const logger = new Logger("agentry.journal", { sink });
  const journal = new ProcessJournal(memory, { process: "writer", level: "full", logger });
  assert.equal(await journal.record("step", { big: 1n }), undefined);
  await memory.close();
  assert.equal(await journal.record("step", {}), undefined);
  assert.equal(sink.records.length, 2);
  assert.match(String(sink.records[1].fields.error), /closed/);
});

Deno.test("a process journal with a redactor replaces secret values in every string, keys included", async () => {
  const memory = new MemoryJournal();
  const journal = new ProcessJournal(memory, { process: "p", level: "full" });
  journal.setRedactor({ redacts: true, redact: (text) => text.replaceAll("hunter2", "[REDACTED]") });
  await journal.record("note", { text: "pw hunter2", list: ["hunter2", 3], hunter2: { deep: "x hunter2" } });
  const [entry] = await journal.read();
  assert.deepEqual(entry.data, {
    text: "pw [REDACTED]",
    list: ["[REDACTED]", 3],
    "[REDACTED]": { deep: "x [REDACTED]" },
  });
});

import assert from "node:assert/strict";
import type { JournalEntry } from "../../journal/mod.ts";
import { planRewind, stateBefore, summaryNote } from "./rewind_plan.ts";

let next = 0;
function entry(entry_type: string, data: Record<string, unknown> = {}): JournalEntry {
  next++;
  return { entry_id: `e${next}`, process: "p", entry_type, timestamp: `2026-01-01T00:00:${next}Z`, data };
}

const say = (run: string, user: string, assistant: string) => [
  entry("user_prompt", { run_id: run, content: user }),
  entry("assistant_message", { run_id: run, content: assistant }),
];

Deno.test("stateBefore starts from the last checkpoint before the target and adds completed exchanges", () => {
  const entries = [
    ...say("r1", "u1", "a1"),
    entry("checkpoint", { context: { n: 1 }, conversation: [{ role: "user", content: "kept" }] }),
    entry("context_update", { values: { n: 2 }, source: "api" }),
    entry("user_prompt", { run_id: "r2", content: "failed run" }), // no reply: the run failed
    ...say("r3", "u3", "a3"),
    entry("context_update", { values: { n: 3 }, source: "agent" }),
  ];
  const target = entries.length - 1;
  assert.deepEqual(stateBefore(entries, target, { initial: {}, maxMessages: 0 }), {
    context: { n: 2 },
    conversation: [
      { role: "user", content: "kept" },
      { role: "user", content: "u3" },
      { role: "assistant", content: "a3" },
    ],
  });
  assert.deepEqual(stateBefore(entries, target, { initial: {}, maxMessages: 2 }).conversation, [
    { role: "user", content: "u3" },
    { role: "assistant", content: "a3" },
  ]);
  assert.deepEqual(stateBefore(entries, 0, { initial: { start: true }, maxMessages: 0 }), {
    context: { start: true },
    conversation: [],
  });
});

Deno.test("planRewind counts what each mode acts on from the target to the newest entry", () => {
  const entries = [
    entry("state_transition", { to_state: "running" }),
    ...say("r1", "u1", "a1"),
    entry("tool_call", { tool: "search" }),
    entry("context_update", { values: { k: 1 } }),
    entry("checkpoint", { context: { k: 1 }, conversation: [] }),
  ];
  const counts = (mode: "both" | "conversation_only" | "code_only" | "summarize" | "cancel") => {
    const plan = planRewind(entries, 1, { name: "p", mode });
    return [plan.entries_affected, plan.conversation_entries_affected, plan.code_entries_affected];
  };
  assert.deepEqual(counts("both"), [5, 2, 2]);
  assert.deepEqual(counts("conversation_only"), [2, 2, 0]);
  assert.deepEqual(counts("code_only"), [2, 0, 2]);
  assert.deepEqual(counts("summarize"), [5, 2, 2]);
  assert.deepEqual(counts("cancel"), [5, 2, 2]);
  assert.equal(planRewind(entries, 1, { name: "p", mode: "both" }).target_entry_id, entries[1].entry_id);
  const note = summaryNote(entries, 1);
  assert.match(note, /rewound past 5 journal entries/);
  assert.match(note, /Tools called in it: search\. Context keys written in it: k\./);
});

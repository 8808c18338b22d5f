import assert from "node:assert/strict";
import { BudgetTracker } from "../runtime/mod.ts";
import { buildPrompt } from "./prompt.ts";
import { testConfig } from "./_test_runtime.ts";

const HISTORY = [
  { role: "user" as const, content: "q1" },
  { role: "assistant" as const, content: "a1" },
  { role: "user" as const, content: "q2" },
  { role: "assistant" as const, content: "a2" },
];

Deno.test("the prompt holds every block in the documented order", () => {
  const resolved = testConfig({
    instructions: "Be brief.",
    budget: { enabled: true, max_tool_calls_per_day: 40, max_runs_per_day: 5 },
    mission: { enabled: true, objective: "Close tickets", success_criteria: "No open tickets" },
  });
  const run = new BudgetTracker({ config: () => resolved.budget }).startRun();
  run.beforeToolCall("search");
  const messages = buildPrompt({
    config: resolved,
    budgetRemaining: run.remaining(),
    state: { tickets: 3 },
    memories: [{ id: "m1", text: "Alice prefers e-mail", score: 0.8 }],
    operatorMessages: "=== OPERATOR MESSAGES ===\nhi\n=== END OPERATOR MESSAGES ===",
    mission: {
      state: "active",
      objective: "Close tickets",
      success_criteria: "No open tickets",
      invocation_count: 2,
      activated_at: null,
      reason: null,
      evaluations: [{
        evaluation: 1,
        invocation: 2,
        achieved: false,
        confidence: 0.4,
        reasoning: "r",
        progress_summary: "2 of 5 closed",
        model: "process",
        timestamp: "2026-01-01T00:00:00.000Z",
      }],
    },
    conversation: HISTORY,
    trigger: "[Trigger: cron] ...",
  });
  assert.deepEqual(messages.map((m) => m.role), [
    "system",
    "system",
    "system",
    "system",
    "system",
    "system",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
  ]);
  assert.equal(messages[0].content, "Be brief.");
  assert.equal(messages[1].content, '[Context State] {"tickets":3}');
  assert.match(
    messages[2].content,
    /^\[Relevant Memories\]\n- \(m1, relevance 0\.80\) Alice prefers e-mail$/,
  );
  assert.equal(
    messages[3].content,
    '[Budget Remaining] {"tool_calls_run":null,"llm_turns_run":null,"cost_run":null,"irreversible_run":null,' +
      '"tokens_run":null,"tool_calls_day":39,"runs_day":4,"cost_day":null,"tokens_day":null}',
  );
  assert.equal(
    messages[4].content,
    "[Mission] State: active | Objective: Close tickets\nSuccess criteria: No open tickets\n" +
      "Evaluations: 1 | Last confidence: 0.4 | Last summary: 2 of 5 closed",
  );
  assert.match(messages[5].content, /^=== OPERATOR MESSAGES ===/);
  assert.equal(messages.at(-1)!.content, "[Trigger: cron] ...");
});

Deno.test("empty blocks are left out and the history follows the context settings", () => {
  const bare = buildPrompt({ config: testConfig({}), state: {}, conversation: HISTORY, trigger: "t" });
  assert.deepEqual(bare.map((m) => m.content), ["q1", "a1", "q2", "a2", "t"]);
  const capped = buildPrompt({
    config: testConfig({ context: { conversation_max_messages: 2 } }),
    state: {},
    conversation: HISTORY,
    trigger: "t",
  });
  assert.deepEqual(capped.map((m) => m.content), ["q2", "a2", "t"]);
  const stateless = buildPrompt({
    config: testConfig({ context: { conversation_history: false } }),
    state: {},
    conversation: HISTORY,
    trigger: "t",
  });
  assert.deepEqual(stateless.map((m) => m.content), ["t"]);
});

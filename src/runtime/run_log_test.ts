import assert from "node:assert/strict";
import { RUN_LOG_CAPACITY, RUN_STEP_LIMIT, RunLog, type RunProgress } from "./run_log.ts";

const RUN = { invocation: 1, attempt: 1, event_id: "e1", trigger_id: "webhook-abc", trigger_type: "webhook" };

Deno.test("run log records a run's steps, usage and reply, and feeds progress in order", () => {
  const log = new RunLog();
  const seen: RunProgress[] = [];
  const unsubscribe = log.subscribe((p) => seen.push(p));
  const run = log.begin(RUN);
  run.text("Hel");
  run.step("model_turn", { text: "Hello" });
  run.usage({ input_tokens: 10, output_tokens: 3 });
  run.step("tool_call", { tool: "a" });
  const ended = run.end("succeeded", { reply: "Hello" });
  unsubscribe();
  log.begin(RUN).end("failed", { error: "run failed" });
  assert.deepEqual(seen.map((p) => p.type), ["run_started", "text", "step", "step", "run_ended"]);
  assert.equal(ended.status, "succeeded");
  assert.equal(ended.model_turns, 1);
  assert.equal(ended.tool_calls, 1);
  assert.deepEqual(ended.usage, { input_tokens: 10, output_tokens: 3 });
  const detail = log.get(run.runId)!;
  assert.deepEqual(detail.steps.map((s) => [s.index, s.type]), [[1, "model_turn"], [2, "tool_call"]]);
  const list = log.list();
  assert.equal(list.length, 2);
  assert.equal(list[0].status, "failed", "newest first");
  const usage = log.usage();
  assert.equal(usage.today.runs, 2);
  assert.equal(usage.today.input_tokens, 10);
  assert.deepEqual(usage.total, { runs: 2, input_tokens: 10, output_tokens: 3 });
});

Deno.test("run log keeps the newest runs and a bounded number of steps per run", () => {
  const log = new RunLog();
  let first = "";
  for (let i = 0; i < RUN_LOG_CAPACITY + 5; i++) {
    const run = log.begin({ ...RUN, invocation: i + 1 });
    if (i === 0) first = run.runId;
    run.end("succeeded", {});
  }
  assert.equal(log.list().length, RUN_LOG_CAPACITY);
  assert.equal(log.get(first), undefined);
  const run = log.begin(RUN);
  for (let i = 0; i < RUN_STEP_LIMIT + 3; i++) run.step("note", { i });
  const detail = log.get(run.runId)!;
  assert.equal(detail.steps.length, RUN_STEP_LIMIT);
  assert.equal(detail.step_count, RUN_STEP_LIMIT + 3);
});

Deno.test("a failing progress listener does not stop the others", () => {
  const log = new RunLog();
  let count = 0;
  log.subscribe(() => {
    throw new Error("boom");
  });
  log.subscribe(() => count++);
  log.begin(RUN).end("succeeded", {});
  assert.equal(count, 2);
});

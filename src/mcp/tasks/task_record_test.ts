import assert from "node:assert/strict";
import { TaskRecord } from "./task_record.ts";

const ELICIT = { method: "elicitation/create" as const, params: { message: "ok?" } };

function record(): TaskRecord {
  return new TaskRecord({ taskId: "t1", owner: "", tool: "job", ttlMs: 60_000, pollIntervalMs: 500 });
}

Deno.test("a task's view carries the wire fields: ISO times, integer ttlMs and pollIntervalMs, no result", () => {
  const view = record().view();
  assert.equal(view.status, "working");
  assert.equal(view.ttlMs, 60_000);
  assert.equal(view.pollIntervalMs, 500);
  assert.ok(!Number.isNaN(Date.parse(view.createdAt)) && !Number.isNaN(Date.parse(view.lastUpdatedAt)));
  assert.deepEqual(Object.keys(view).sort(), [
    "createdAt",
    "lastUpdatedAt",
    "pollIntervalMs",
    "status",
    "taskId",
    "ttlMs",
  ]);
});

Deno.test("two pending questions answered one at a time: the task waits until both are in", async () => {
  const task = record();
  const first = task.ask("e1", ELICIT);
  const second = task.ask("e2", ELICIT);
  assert.equal(task.status, "input_required");
  assert.deepEqual(Object.keys(task.detailed().inputRequests ?? {}), ["e1", "e2"]);
  task.answer({ e1: { action: "accept", content: { ok: true } }, unknown: { whatever: 1 } });
  assert.deepEqual(await first, { action: "accept", content: { ok: true } });
  assert.equal(task.status, "input_required");
  assert.deepEqual(Object.keys(task.detailed().inputRequests ?? {}), ["e2"], "the answered key is gone");
  task.answer({ e2: { action: "decline" } });
  assert.deepEqual(await second, { action: "decline" });
  assert.equal(task.status, "working");
  assert.equal(task.detailed().inputRequests, undefined);
});

Deno.test("a malformed answer to a pending key is refused and the question stays pending", async () => {
  const task = record();
  void task.ask("e1", ELICIT).catch(() => {});
  assert.throws(
    () => task.answer({ e1: { action: "maybe" } }),
    /inputResponses.e1 is not a elicitation\/create result/,
  );
  assert.equal(task.status, "input_required");
  await assert.rejects(task.ask("e1", ELICIT), /the input key 'e1' is already pending/);
  task.cancel();
});

Deno.test("cancel aborts the task, rejects what it waits for, and is idempotent; an ended task stays ended", async () => {
  const task = record();
  const waiting = task.ask("s1", { method: "sampling/createMessage", params: {} });
  task.cancel();
  await assert.rejects(waiting, { code: "CANCELLED" });
  assert.equal(task.status, "cancelled");
  assert.ok(task.cancelled.aborted);
  task.cancel();
  task.complete({ content: [] });
  task.fail({ code: -32603, message: "late" });
  assert.equal(task.detailed().status, "cancelled");
  assert.equal(task.detailed().result, undefined);
  await assert.rejects(task.ask("e9", ELICIT), { code: "CANCELLED" });
});

Deno.test("a completed task inlines its result; a failed one its error and no result", () => {
  const done = record();
  done.complete({ content: [{ type: "text", text: "ok" }], resultType: "complete" });
  assert.deepEqual(done.detailed().result, {
    content: [{ type: "text", text: "ok" }],
    resultType: "complete",
  });
  assert.equal(done.detailed().error, undefined);
  const failed = record();
  failed.fail({ code: -32603, message: "Internal error" });
  assert.deepEqual(failed.detailed().error, { code: -32603, message: "Internal error" });
  assert.ok(!("result" in failed.detailed()));
  assert.equal(failed.expiresAt - Date.parse(failed.view().lastUpdatedAt), 60_000);
});

import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { TaskStore } from "./task_store.ts";

Deno.test("a task is kept before create returns and only its creator sees it", () => {
  const store = new TaskStore();
  const task = store.create("alice", "slow");
  assert.equal(store.get(task.taskId, "alice"), task);
  assert.equal(store.get(task.taskId, "bob"), undefined, "another principal does not see it");
  assert.equal(store.get(task.taskId, ""), undefined, "nor does an anonymous caller");
  assert.equal(store.toolOf(task.taskId), "slow");
  assert.match(task.taskId, /^[0-9a-f-]{36}$/);
});

Deno.test("an ended task is kept ttlMs after it ends, then forgotten; a running task never expires", () => {
  const clock = FakeTimers.install({ now: Date.parse("2026-07-28T00:00:00Z") });
  try {
    const store = new TaskStore({ ttlMs: 60_000 });
    const ended = store.create("alice", "slow");
    const running = store.create("alice", "slow");
    clock.tick(10 * 60_000);
    ended.complete({ content: [] });
    clock.tick(59_999);
    assert.equal(store.get(ended.taskId, "alice")?.status, "completed", "kept for its whole ttl");
    clock.tick(1);
    assert.equal(store.get(ended.taskId, "alice"), undefined);
    assert.equal(store.toolOf(ended.taskId), undefined);
    assert.equal(store.get(running.taskId, "alice")?.status, "working");
    assert.equal(store.size, 1);
  } finally {
    clock.uninstall();
  }
});

Deno.test("a full store makes room by dropping the oldest ended task, and refuses when all run", () => {
  const clock = FakeTimers.install({ now: 1_000_000 });
  try {
    const store = new TaskStore({ maxTasks: 2 });
    const first = store.create("a", "t");
    const second = store.create("a", "t");
    first.complete({ content: [] });
    clock.tick(5);
    second.fail({ code: -32603, message: "Internal error" });
    const third = store.create("a", "t");
    assert.equal(store.get(first.taskId, "a"), undefined, "the oldest ended task made room");
    assert.equal(store.get(second.taskId, "a")?.status, "failed");
    assert.equal(store.size, 2);
    third.report("busy");
    second.cancel();
    store.create("a", "t");
    assert.throws(() => store.create("a", "t"), { code: "CONCURRENCY_LIMIT_EXCEEDED" });
  } finally {
    clock.uninstall();
  }
});

Deno.test("watchers see every change of a task with its owner; a failing watcher does not stop the task", () => {
  const store = new TaskStore();
  const seen: string[] = [];
  store.watch(() => {
    throw new Error("watcher bug");
  });
  const stop = store.watch((task, owner) => seen.push(`${owner}:${task.status}:${task.statusMessage ?? ""}`));
  const task = store.create("alice", "slow");
  task.report("half way");
  task.complete({ content: [{ type: "text", text: "done" }] });
  stop();
  task.report("ignored after the end");
  assert.deepEqual(seen, ["alice:working:half way", "alice:completed:half way"]);
});

Deno.test("store options must be positive integers", () => {
  assert.throws(() => new TaskStore({ ttlMs: 1.5 }), /ttlMs must be a positive integer/);
  assert.throws(() => new TaskStore({ pollIntervalMs: 0 }), /pollIntervalMs/);
  assert.throws(() => new TaskStore({ maxTasks: -1 }), /maxTasks/);
  const store = new TaskStore();
  assert.deepEqual([store.ttlMs, store.pollIntervalMs, store.maxTasks], [1_800_000, 1000, 1000]);
});

import assert from "node:assert/strict";
import {
  HISTORY_LIMIT,
  InvalidTransitionError,
  Lifecycle,
  PROCESS_STATES,
  TRANSITIONS,
} from "./lifecycle.ts";

Deno.test("lifecycle starts in created and moves only along the transition table", () => {
  const lifecycle = new Lifecycle();
  assert.equal(lifecycle.state, "created");
  assert.throws(() => lifecycle.move("running", "skip"), InvalidTransitionError);
  lifecycle.move("starting", "start");
  lifecycle.move("running", "started");
  assert.equal(lifecycle.state, "running");
  assert.deepEqual(lifecycle.history.map((t) => `${t.from}>${t.to}`), [
    "created>starting",
    "starting>running",
  ]);
});

Deno.test("every state has an entry in the transition table and every target is a state", () => {
  for (const state of PROCESS_STATES) {
    assert.ok(Array.isArray(TRANSITIONS[state]), state);
    for (const target of TRANSITIONS[state]) assert.ok(PROCESS_STATES.includes(target));
  }
});

Deno.test("an illegal transition names the current state and the allowed ones", () => {
  const lifecycle = new Lifecycle("stopped");
  const error = assert.throws(() => lifecycle.move("suspended", "x"), (e: unknown) => {
    assert.ok(e instanceof InvalidTransitionError);
    assert.equal(e.from, "stopped");
    assert.match(e.message, /allowed: starting/);
    return true;
  });
  assert.equal(error, undefined);
});

Deno.test("listeners see each transition and can unsubscribe", () => {
  const lifecycle = new Lifecycle();
  const seen: string[] = [];
  const off = lifecycle.onTransition((t) => seen.push(`${t.to}:${t.reason}`));
  lifecycle.move("starting", "go");
  off();
  lifecycle.move("failed", "boom");
  assert.deepEqual(seen, ["starting:go"]);
});

Deno.test("history keeps only the most recent transitions", () => {
  const lifecycle = new Lifecycle("stopped");
  for (let i = 0; i < HISTORY_LIMIT + 10; i++) {
    lifecycle.move("starting", `round ${i}`);
    lifecycle.move(i % 2 ? "failed" : "running", "x");
    if (lifecycle.state === "running") {
      lifecycle.move("stopping", "x");
      lifecycle.move("stopped", "x");
    }
  }
  assert.equal(lifecycle.history.length, HISTORY_LIMIT);
  assert.equal(lifecycle.history.at(-1)?.to, lifecycle.state);
  assert.equal(lifecycle.history[0].reason === "round 0", false);
});

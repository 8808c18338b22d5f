import assert from "node:assert/strict";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { isRuntimeError } from "../errors.ts";
import { CONTEXT_MAX_BYTES, type ContextSettings, ContextStore } from "./context_store.ts";

function store(settings: ContextSettings, journal?: ProcessJournal): ContextStore {
  return new ContextStore({ settings: () => settings, journal });
}

function memoryJournal(): ProcessJournal {
  return new ProcessJournal(new MemoryJournal(), { process: "p", level: "checkpoint" });
}

Deno.test("the view starts from a copy of initial_state; absent writable_keys makes every key writable", () => {
  const initial = { count: 1, nested: { a: [1] } };
  const context = store({ initial_state: initial });
  assert.deepEqual(context.view(), { state: initial, writable_keys: null, all_keys_writable: true });
  (context.view().state.nested as { a: number[] }).a.push(2);
  assert.deepEqual(context.snapshot(), { count: 1, nested: { a: [1] } });
  assert.deepEqual(initial, { count: 1, nested: { a: [1] } });
});

Deno.test("writable_keys [] makes no key writable; a list allows only its keys", async () => {
  const none = store({ writable_keys: [], initial_state: {} });
  assert.deepEqual(none.view(), { state: {}, writable_keys: [], all_keys_writable: false });
  await assert.rejects(none.write({ a: 1 }, "api"), (e) => isRuntimeError(e, "WRITE_DENIED"));
  const some = store({ writable_keys: ["status"], initial_state: {} });
  await some.write({ status: "ok" }, "agent");
  assert.deepEqual(some.snapshot(), { status: "ok" });
});

Deno.test("a write with any refused key names every refused key and writes nothing", async () => {
  const journal = memoryJournal();
  const context = store({ writable_keys: ["status"], initial_state: { status: "idle" } }, journal);
  await assert.rejects(
    context.write({ status: "busy", secret: 1, other: 2 }, "api"),
    (e) => isRuntimeError(e, "WRITE_DENIED") && JSON.stringify(e.details.keys) === '["secret","other"]',
  );
  assert.deepEqual(context.snapshot(), { status: "idle" });
  assert.deepEqual(await journal.read({ type: "context_update" }), []);
});

Deno.test("each write is journaled as one context_update entry with its values and source", async () => {
  const journal = memoryJournal();
  const context = store({ initial_state: { keep: true, drop: 1 } }, journal);
  await context.write({ a: { b: [1, 2] }, drop: null }, "api");
  await context.write({ n: 2 }, "agent");
  assert.deepEqual(context.snapshot(), { keep: true, a: { b: [1, 2] }, n: 2 });
  const entries = await journal.read({ type: "context_update" });
  assert.deepEqual(entries.map((e) => e.data), [
    { values: { a: { b: [1, 2] }, drop: null }, source: "api" },
    { values: { n: 2 }, source: "agent" },
  ]);
});

Deno.test("values that are not JSON, and a state beyond the size bound, are refused and nothing is written", async () => {
  const context = store({ initial_state: { a: 1 } });
  for (const bad of [undefined, Number.NaN, () => 1, new Date(), { x: Infinity }]) {
    await assert.rejects(
      context.write({ a: 2, b: bad }, "agent"),
      (e) => isRuntimeError(e, "CONTEXT_INVALID"),
    );
  }
  const big = "x".repeat(CONTEXT_MAX_BYTES);
  await assert.rejects(
    context.write({ a: 2, big }, "api"),
    (e) => isRuntimeError(e, "CONTEXT_INVALID") && e.details.field === "state",
  );
  assert.deepEqual(context.snapshot(), { a: 1 });
});

Deno.test("writable_keys are read at each write, so a reconfigure applies at once", async () => {
  let settings: ContextSettings = { writable_keys: ["a"], initial_state: {} };
  const context = new ContextStore({ settings: () => settings });
  await assert.rejects(context.write({ b: 1 }, "api"));
  settings = { initial_state: {} };
  await context.write({ b: 1 }, "api");
  assert.deepEqual(context.view().writable_keys, null);
});

Deno.test("restore replaces the state with a copy; reset goes back to initial_state and is journaled", async () => {
  const journal = memoryJournal();
  const context = store({ initial_state: { start: 0 } }, journal);
  const saved = { x: [1] };
  await context.restore(saved);
  saved.x.push(2);
  assert.deepEqual(context.snapshot(), { x: [1] });
  await context.reset();
  assert.deepEqual(context.snapshot(), { start: 0 });
  const [entry] = await journal.read({ type: "context_update" });
  assert.deepEqual(entry.data, { values: {}, source: "system", reset: true });
});

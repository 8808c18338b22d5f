import assert from "node:assert/strict";
import { InputRequiredSignal } from "../input_required.ts";
import { pendingMethods } from "./pending_inputs.ts";

Deno.test("pending inputs name each key's method, sorted, without params or answers", () => {
  const signal = new InputRequiredSignal({
    s1: { method: "sampling/createMessage", params: { messages: [] } },
    e1: { method: "elicitation/create", params: { message: "secret question" } },
  }, { r1: { roots: [] } });
  assert.deepEqual(pendingMethods(signal), { e1: "elicitation/create", s1: "sampling/createMessage" });
  assert.deepEqual(Object.keys(pendingMethods(signal)), ["e1", "s1"]);
});

import assert from "node:assert/strict";
import { RunBlockedError, RunError } from "./process_event.ts";

Deno.test("a RunBlockedError captures no stack frames and leaves the stack limit as it was", () => {
  const limit = Error.stackTraceLimit;
  const blocked = new RunBlockedError("no runner", "no agent runner is configured");
  assert.equal(blocked.stack, "RunBlockedError: no agent runner is configured");
  assert.equal(blocked.reason, "no runner");
  assert.equal(Error.stackTraceLimit, limit);
  assert.match(new RunError("run failed").stack ?? "", /\n\s+at /, "other errors keep theirs");
});

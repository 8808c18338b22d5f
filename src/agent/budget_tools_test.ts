import assert from "node:assert/strict";
import { BudgetTracker, parseSection } from "../runtime/mod.ts";
import { withBudget } from "./budget_tools.ts";
import type { ToolBox } from "./tool_loop.ts";

Deno.test("a call refused by the budget never reaches the tool and the model is told which limit", async () => {
  const parsed = parseSection("budget", { enabled: true, max_tool_calls_per_run: 1 });
  if (!parsed.ok) throw new Error("invalid");
  const called: string[] = [];
  const box: ToolBox = {
    specs: () => [{ name: "echo", description: "echo", inputSchema: { type: "object" } }],
    call: (name) => {
      called.push(name);
      return Promise.resolve({ content: "ok", isError: false });
    },
  };
  const run = new BudgetTracker({ config: () => parsed.config }).startRun();
  const tools = withBudget(box, run);
  const signal = new AbortController().signal;
  assert.deepEqual(await tools.call("echo", {}, signal), { content: "ok", isError: false });
  const refused = await tools.call("echo", {}, signal);
  assert.equal(refused.isError, true);
  assert.match(refused.content, /^Budget limit reached: max_tool_calls_per_run is 1 \(1 used\)/);
  assert.deepEqual(called, ["echo"]);
  assert.equal(tools.specs().length, 1);
  assert.equal(withBudget(box, undefined), box);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { petPlan } from "./_test_eval.ts";
import { evalFixes } from "./fixes.ts";
import { scoreResults, taskResult } from "./score.ts";
import type { EvalCall } from "./types.ts";

function call(tool: string, error_code?: string, status?: number): EvalCall {
  return {
    tool,
    arguments: {},
    ok: error_code === undefined,
    ...(error_code ? { error_code } : {}),
    ...(status ? { status } : {}),
  };
}

test("fixes come most urgent first: breakage, then confusion, then coverage", async () => {
  const { plan } = await petPlan();
  plan.tools.find((tool) => tool.name === "list_pets")!.params.limit.description = "";
  const task = (id: string, expected: string) => ({ id, prompt: id, expected_tool: expected });
  const results = [
    taskResult(task("a", "get_pet"), { calls: [], reply: "", error: "model 'm' could not be used: timeout" }),
    taskResult(task("b", "get_pet"), {
      calls: [call("get_pet", "AUTHENTICATION_ERROR"), call("get_pet", "UPSTREAM_ERROR", 403)],
      reply: "",
    }),
    taskResult(task("c", "get_pet"), { calls: [call("get_pet", "UPSTREAM_INSECURE")], reply: "" }),
    taskResult(task("d", "delete_pet"), { calls: [call("get_pet", "UPSTREAM_ERROR", 404)], reply: "" }),
    taskResult(task("e", "list_pets"), { calls: [call("list_pets", "VALIDATION_ERROR")], reply: "" }),
  ];
  const names = plan.tools.map((tool) => tool.name);
  const fixes = evalFixes(plan, {
    results,
    score: scoreResults(results, names),
    unmatched: ["GET /a", "GET /b", "GET /c", "GET /d", "GET /e"],
    tools: names,
  });
  const texts = fixes.map((fix) => `${fix.kind === "problem" ? "✗" : "•"} ${fix.text}`);
  const expected = [
    /^✗ 1 task crashed; the first: model 'm' could not be used: timeout$/,
    /^✗ The server refused 1 call as unauthenticated/,
    /^✗ 1 call had no upstream credential .*MCPCAST_EVAL_AUTHORIZATION/,
    /^✗ Calls were refused for sending a credential over plain http/,
    /^✗ No tool route matched `GET \/a`, `GET \/b`, `GET \/c`, `GET \/d` and 1 more/,
    /^• `delete_pet` vs `get_pet` are easy to confuse: `get_pet` was called first in 1 of 1 tasks/,
    /^• `get_pet` was answered 404\/410/,
    /^• `list_pets` got 1 invalid argument set; describe or give an example value for `limit`\.$/,
    /^• Never used although a task needed them: `delete_pet`/,
    /^• No task tried `create_pet`, `list_my_pets`/,
    /^• No example: `list_pets`\./,
  ];
  assert.equal(texts.length, expected.length, texts.join("\n"));
  texts.forEach((text, i) => assert.match(text, expected[i]));
});

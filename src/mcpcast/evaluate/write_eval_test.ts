import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { tempDir } from "../_test_parse.ts";
import { renderEvalMarkdown } from "./render.ts";
import { taskResult } from "./score.ts";
import type { EvalReport, EvalTask } from "./types.ts";
import { writeEval } from "./write_eval.ts";

const TASKS: EvalTask[] = [
  { id: "t1", prompt: "Show pet 7 | the\nfluffy one", expected_tool: "get_pet", rationale: "by id" },
  { id: "t2", prompt: "Delete pet 7", expected_tool: "delete_pet" },
  { id: "t3", prompt: "List pets", expected_tool: "list_pets" },
];

function report(): EvalReport {
  return {
    api: "petstore",
    grade: "D",
    score: 0.467,
    total: 3,
    succeeded: 1,
    crashed: 1,
    successRate: 0.333,
    selectionRate: 0.667,
    paramErrorRate: 0.25,
    neverUsed: [],
    notCovered: ["create_pet"],
    confusedPairs: [],
    unmatched: [],
    liveRequests: 1,
    mockedRequests: 2,
    toolCount: 4,
    toolListTokens: 612,
    fixes: [{ kind: "problem", text: "1 task crashed" }, {
      kind: "advice",
      text: "No task tried `create_pet`",
    }],
    results: [
      taskResult(TASKS[0], {
        calls: [{ tool: "get_pet", arguments: { petId: "7" }, ok: true }],
        reply: "ok",
      }),
      taskResult(TASKS[1], {
        calls: [
          { tool: "get_pet", arguments: {}, ok: false, error_code: "VALIDATION_ERROR" },
          {
            tool: "delete_pet",
            arguments: { petId: "7" },
            ok: false,
            error_code: "UPSTREAM_ERROR",
            status: 404,
          },
        ],
        reply: "",
      }),
      taskResult(TASKS[2], { calls: [], reply: "", error: "model failed" }),
    ],
  };
}

test("the Markdown report has the headline, metrics, fixes and one table row per task", () => {
  const text = renderEvalMarkdown(report());
  const lines = text.split("\n");
  assert.equal(lines[0], "# Agent Readiness: D (1/3 tasks succeeded)");
  assert.ok(lines.includes("- Score: 0.467 (0.6 × task success 33.3% + 0.4 × correct tool first 66.7%)"));
  assert.ok(lines.includes("- Parameter error rate: 25%"));
  assert.ok(lines.includes("- Tool list: 4 tools, ~612 tokens"));
  assert.ok(lines.includes("- ✗ 1 task crashed"));
  assert.ok(lines.includes("- • No task tried `create_pet`"));
  assert.ok(lines.includes("| # | Task | Expected | Called | Result |"));
  assert.ok(lines.includes("| t1 | Show pet 7 \\| the fluffy one | get_pet | get_pet | ✓ |"));
  assert.ok(lines.includes("| t2 | Delete pet 7 | delete_pet | get_pet ✗ → delete_pet ✗ | ✗ |"));
  assert.ok(lines.includes("| t3 | List pets | list_pets | — | error |"));
});

test("writeEval writes tasks.yaml, report.json and report.md, replacing old ones, no temp files left", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "eval"));
  await Deno.writeTextFile(join(dir.path, "eval", "report.md"), "old");
  const paths = await writeEval(report(), TASKS, dir.path);
  assert.deepEqual(
    paths,
    ["tasks.yaml", "report.json", "report.md"].map((file) => join(dir.path, "eval", file)),
  );
  assert.deepEqual(parse(await Deno.readTextFile(paths[0])), { tasks: TASKS });
  assert.deepEqual(JSON.parse(await Deno.readTextFile(paths[1])), report());
  assert.equal(await Deno.readTextFile(paths[2]), renderEvalMarkdown(report()));
  const names = [];
  for await (const entry of Deno.readDir(join(dir.path, "eval"))) names.push(entry.name);
  assert.deepEqual(names.sort(), ["report.json", "report.md", "tasks.yaml"]);
});

test("tasks.yaml leaves out an empty rationale", async () => {
  await using dir = await tempDir();
  const [path] = await writeEval(report(), [{ ...TASKS[1], rationale: "" }], dir.path);
  assert.equal(
    await Deno.readTextFile(path),
    "tasks:\n  - id: t2\n    prompt: Delete pet 7\n    expected_tool: delete_pet\n",
  );
});

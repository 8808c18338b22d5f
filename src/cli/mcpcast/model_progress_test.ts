import assert from "node:assert/strict";
import type { EvalTask } from "../../mcpcast/mod.ts";
import { fakeContext } from "../_test_context.ts";
import { clipLine, curationProgress, evaluationProgress } from "./model_progress.ts";
import { modelEndpoint, modelNeeds, providerVariables } from "./model.ts";
import { Progress } from "./progress.ts";

function shown(stderr: string[]): string[] {
  return stderr.map((line) => line.replace(/^mcpcast: \[\d+\.\ds\] /, ""));
}

Deno.test("model progress is shown off a terminal and for small specs, one line per attempt and per task", () => {
  const { ctx, stderr } = fakeContext([], { terminal: false });
  const progress = new Progress(ctx, { large: false });
  const curation = curationProgress(progress, "ollama:qwen3");
  curation({ kind: "attempt", attempt: 3, maxAttempts: 3 });
  curation({ kind: "violations", attempt: 3, violations: ["too many tools\u001b[31m (26 > 25)", "b"] });
  curation({ kind: "done", attempts: 1, tools: 1, dropped: 4 });
  const task: EvalTask = { id: "t9", prompt: "p", expected_tool: "get_pet" };
  const evaluation = evaluationProgress(progress);
  const base = { task, calls: [], selectedFirst: false, reply: "" };
  evaluation({ kind: "task_started", index: 1, total: 2, task });
  evaluation({
    kind: "task_ended",
    index: 1,
    total: 2,
    task,
    result: { ...base, success: false, calls: [{ tool: "list_pets", arguments: {}, ok: false }] },
  });
  evaluation({
    kind: "task_ended",
    index: 2,
    total: 2,
    task,
    result: { ...base, success: false, error: "model 'x' could not be used:\nHTTP 500" },
  });
  assert.ok(stderr.every((line) => /^mcpcast: \[\d+\.\ds\] /.test(line)));
  assert.deepEqual(shown(stderr), [
    "curating with ollama:qwen3: attempt 3/3",
    "attempt 3/3: 2 violations (too many tools (26 > 25))",
    "curated: 1 tool, 4 not exposed (1 attempt)",
    "eval task 1/2 ✗ t9 get_pet (called list_pets ✗)",
    "eval task 2/2 ✗ t9 get_pet (crashed: model 'x' could not be used: HTTP 500)",
  ]);
});

Deno.test("model text is shown on one line, without control characters, clipped", () => {
  assert.equal(clipLine("a\nb\u0007c"), "a b c");
  assert.equal(clipLine("x".repeat(30), 10), `${"x".repeat(9)}…`);
});

Deno.test("a model's variables and host come from its provider and the environment", () => {
  assert.deepEqual(providerVariables("openai:gpt-5-mini"), ["OPENAI_API_KEY", "OPENAI_BASE_URL"]);
  assert.deepEqual(providerVariables("ollama:llama3.2:3b"), ["OLLAMA_HOST"]);
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.equal(modelEndpoint("openai:m", env({}))?.host, "api.openai.com");
  assert.equal(
    modelEndpoint("openai:m", env({ OPENAI_BASE_URL: "https://proxy.example.com/v1" }))?.host,
    "proxy.example.com",
  );
  assert.equal(modelEndpoint("anthropic:m", env({}))?.host, "api.anthropic.com");
  assert.equal(modelEndpoint("ollama:m", env({}))?.host, "localhost:11434");
  assert.equal(modelEndpoint("ollama:m", env({ OLLAMA_HOST: "gpu.lan" }))?.host, "gpu.lan:11434");
  assert.equal(modelEndpoint("ollama:m", env({ OLLAMA_HOST: "https://gpu.lan" }))?.host, "gpu.lan");
  assert.equal(modelEndpoint("openai-compatible:m", env({})), null);
  assert.deepEqual(modelNeeds("openai-compatible:m", env({})), []);
  assert.deepEqual(
    modelNeeds("openai-compatible:m", env({ OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:8080/v1" })),
    [
      { name: "net", host: "127.0.0.1:8080", query: "127.0.0.1:8080" },
    ],
  );
  assert.deepEqual(modelNeeds("openai:m", env({})), [
    { name: "net", host: "api.openai.com", query: "api.openai.com:443" },
  ]);
});

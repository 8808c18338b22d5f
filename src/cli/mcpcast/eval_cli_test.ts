import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPlan } from "../../mcpcast/mod.ts";
import { fakeContext, listDir, tempDir } from "../_test_context.ts";
import { runCli } from "../mod.ts";
import { petUpstream, scriptedCastModel } from "./_test_model.ts";

const PETSTORE = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url),
);

/** One task, "Show me pet 7", that the scripted agent answers with one call of get_pet_by_id. */
const SHOW_PET_7: Parameters<typeof scriptedCastModel>[0] = {
  tasks: [{ id: "t1", prompt: "Show me pet 7", expected_tool: "get_pet_by_id" }],
  agent: { "Show me pet 7": [{ name: "get_pet_by_id", arguments: { petId: 7 } }] },
};

async function run(args: string[], options: Parameters<typeof fakeContext>[1] = {}) {
  const fake = fakeContext(["mcpcast", ...args], options);
  const code = await runCli(fake.ctx);
  return { code, ...fake, text: fake.stderr.join("\n") };
}

Deno.test("mcpcast --plan FILE --model M --eval evaluates the regenerated project, mocks from the plan's spec_source", async () => {
  await using upstream = petUpstream();
  await using model = scriptedCastModel(SHOW_PET_7);
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const planned = await run([
    PETSTORE,
    "--out",
    out,
    "--plan-only",
    "--base-url",
    upstream.url,
    "--auth",
    "none",
  ]);
  assert.equal(planned.code, 0, planned.text);
  const planFile = join(out, "mcpcast.plan.yaml");
  const result = await run(["--plan", planFile, "--model", model.model, "--eval-tasks", "1", "--json"], {
    env: model.env,
  });
  assert.equal(result.code, 0, result.text);
  assert.deepEqual(await listDir(join(out, "eval")), ["report.json", "report.md", "tasks.yaml"]);
  const json = JSON.parse(result.stdout[0]);
  assert.equal(json.eval.grade, "A");
  assert.equal(json.curation, undefined, "a plan file is not curated");
  assert.match(await Deno.readTextFile(join(out, "eval", "tasks.yaml")), /expected_tool: get_pet_by_id/);
  assert.ok(upstream.paths.includes("GET /v2/pet/7"));

  const moved = { ...loadPlan(await Deno.readTextFile(planFile)) };
  const elsewhere = join(dir.path, "elsewhere.plan.yaml");
  await Deno.writeTextFile(
    elsewhere,
    (await Deno.readTextFile(planFile)).replace(moved.api.spec_source!, join(dir.path, "gone.yaml")),
  );
  const missing = await run([
    "--plan",
    elsewhere,
    "--model",
    model.model,
    "--eval",
    "--out",
    join(dir.path, "x"),
  ], {
    env: model.env,
  });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr.at(-1)!, /--eval: the plan's spec_source \S+gone\.yaml is not found/);
  assert.deepEqual(await listDir(join(dir.path, "x")), []);
});

Deno.test("mcpcast interrupted during the evaluation exits 130 with the project written and no eval/ files", async () => {
  let release = () => {};
  const holdTasks = new Promise<void>((resolve) => release = resolve);
  await using upstream = petUpstream();
  await using model = scriptedCastModel({ holdTasks });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const fake = fakeContext([
    "mcpcast",
    PETSTORE,
    "--out",
    out,
    "--base-url",
    upstream.url,
    "--model",
    model.model,
    "--no-curate",
    "--eval",
  ], { env: model.env });
  const running = runCli(fake.ctx);
  while (model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  fake.stop.abort("SIGINT");
  const code = await running;
  release();
  assert.equal(code, 130);
  assert.equal(
    fake.stderr.at(-1),
    "agentry: interrupted: the project is written; the evaluation stopped (no eval/ files written)",
  );
  const files = await listDir(out);
  assert.ok(files.includes("mcpcast.plan.yaml"));
  assert.ok(!files.includes("eval"));
});

Deno.test("mcpcast --descriptions compact and --tool-mode meta shape the written plan, and the surface report says so", async () => {
  await using dir = await tempDir();
  const full = await run([PETSTORE, "--out", join(dir.path, "full"), "--plan-only", "--json"]);
  const compact = await run([
    PETSTORE,
    "--out",
    join(dir.path, "compact"),
    "--plan-only",
    "--descriptions",
    "compact",
    "--tool-mode",
    "meta",
    "--json",
  ]);
  assert.equal(compact.code, 0, compact.text);
  const plan = loadPlan(await Deno.readTextFile(join(dir.path, "compact", "mcpcast.plan.yaml")));
  assert.equal(plan.api.tool_mode, "meta");
  const [before, after] = [JSON.parse(full.stdout[0]).surface, JSON.parse(compact.stdout[0]).surface];
  assert.equal(before.mode, "direct");
  assert.equal(after.mode, "meta");
  assert.ok(after.tokens < before.tokens, `${after.tokens} < ${before.tokens}`);
  assert.equal(after.served_tokens, after.meta_tokens);
  assert.ok(compact.stderr.some((line) => /^ {2}Tool surface: .*\[served: meta-tool mode\]$/.test(line)));
});

Deno.test("mcpcast --eval-offline answers every upstream request with a mock: the API sees nothing", async () => {
  await using upstream = petUpstream();
  await using model = scriptedCastModel(SHOW_PET_7);
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await run([
    PETSTORE,
    "--out",
    out,
    "--base-url",
    upstream.url,
    "--auth",
    "none",
    "--model",
    model.model,
    "--no-curate",
    "--eval-offline",
    "--eval-tasks",
    "1",
    "--json",
  ], { env: model.env });
  assert.equal(result.code, 0, result.text);
  const json = JSON.parse(result.stdout[0]);
  assert.equal(json.eval.grade, "A");
  assert.deepEqual(upstream.paths, [], "no request reached the API");
  const report = JSON.parse(await Deno.readTextFile(join(out, "eval", "report.json")));
  assert.equal(report.liveRequests, 0);
  assert.equal(report.mockedRequests, 1);
});

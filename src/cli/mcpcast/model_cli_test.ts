import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPlan } from "../../mcpcast/mod.ts";
import { fakeContext, listDir, tempDir } from "../_test_context.ts";
import { runCli } from "../mod.ts";
import { petstoreProposal, petUpstream, scriptedCastModel } from "./_test_model.ts";

const PETSTORE = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url),
);

async function run(args: string[], options: Parameters<typeof fakeContext>[1] = {}) {
  const fake = fakeContext(["mcpcast", ...args], options);
  const code = await runCli(fake.ctx);
  return { code, ...fake, text: fake.stderr.join("\n") };
}

/** A first proposal breaking one rule (an operation the spec does not have), then the good one. */
function curationScript() {
  const bad = petstoreProposal();
  (bad.tools as Array<Record<string, unknown>>)[2].operations = ["getInventory", "getUnicorns"];
  return [bad, petstoreProposal()];
}

Deno.test("mcpcast --model curates, writes the curated project, evaluates it and writes eval/, with progress on stderr and --json", async () => {
  await using upstream = petUpstream();
  await using model = scriptedCastModel({
    curation: curationScript(),
    tasks: [
      { id: "t1", prompt: "Show me pet 7", expected_tool: "find_pets", rationale: "one pet" },
      { id: "t2", prompt: "What is order 3?", expected_tool: "get_order", rationale: "one order" },
    ],
    agent: {
      "Show me pet 7": [{ name: "find_pets", arguments: { petId: 7 } }],
      "What is order 3?": [
        { name: "get_inventory", arguments: {} },
        { name: "get_order", arguments: { orderId: 3 } },
      ],
    },
  });
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
    "--eval-tasks",
    "2",
    "--json",
  ], { env: model.env });
  assert.equal(result.code, 0, result.text);

  const plan = loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml")));
  assert.deepEqual(plan.tools.map((tool) => tool.name), ["find_pets", "get_order", "get_inventory"]);
  assert.deepEqual(plan.tools[0].routes.map((route) => route.operation_id), [
    "getPetById",
    "findPetsByStatus",
  ]);
  assert.ok(plan.dropped.some((op) => op.operation_id === "addPet"));
  assert.equal(model.curationPrompts().length, 2, "one retry after the violation");
  assert.match(model.curationPrompts()[1], /getUnicorns/, "the feedback names the violation");

  const report = await Deno.readTextFile(join(out, "eval", "report.md"));
  assert.match(report, /^# Agent Readiness: B \(2\/2 tasks succeeded\)/);
  assert.deepEqual(await listDir(join(out, "eval")), ["report.json", "report.md", "tasks.yaml"]);
  assert.ok(upstream.paths.includes("GET /v2/pet/7"), upstream.paths.join(", "));

  const progress = result.stderr.filter((line) => line.startsWith("mcpcast: ["));
  const shown = progress.map((line) => line.replace(/^mcpcast: \[\d+\.\ds\] /, ""));
  assert.deepEqual(shown.slice(0, 4), [
    `curating with ${model.model}: attempt 1/3`,
    shown[1],
    `curating with ${model.model}: attempt 2/3`,
    "curated: 3 tools, 16 not exposed (2 attempts)",
  ]);
  assert.match(shown[1], /^attempt 1\/3: 1 violation; asking again \(.*getUnicorns.*\)$/);
  assert.deepEqual(shown.slice(4), [
    `evaluating with ${model.model}: writing 2 task(s)`,
    "eval task 1/2 ✓ t1 find_pets",
    "eval task 2/2 ✓ t2 get_order (called get_inventory → get_order)",
  ]);
  assert.ok(result.stderr.includes("  curated by the model in 2 attempts"), result.text);
  assert.ok(
    result.stderr.some((line) => /^ {2}Tool surface: \d+ tools?, tools\/list ~\d+ tokens/.test(line)),
  );
  assert.ok(result.stderr.includes("Agent Readiness: B (2/2 tasks succeeded)"), result.text);
  assert.ok(
    result.stderr.some((line) =>
      line === `  report: ${out}/eval/tasks.yaml, ${out}/eval/report.json, ${out}/eval/report.md`
    ),
    result.text,
  );

  assert.equal(result.stdout.length, 1);
  const json = JSON.parse(result.stdout[0]);
  assert.equal(json.counts.kept, 3);
  assert.equal(json.curation.attempts, 2);
  assert.deepEqual(json.curation.merged, { find_pets: ["getPetById", "findPetsByStatus"] });
  assert.equal(json.surface.plan_tools, 3);
  assert.equal(typeof json.surface.tokens, "number");
  assert.equal(json.eval.grade, "B");
  assert.equal(json.eval.score, 0.8);
  assert.deepEqual(
    json.eval.files,
    ["tasks.yaml", "report.json", "report.md"].map((f) => join(out, "eval", f)),
  );
});

Deno.test("mcpcast --model with a missing key says which variable, before reading the spec, and writes nothing", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await run([PETSTORE, "--out", out, "--model", "openai:gpt-5-mini"], { env: {} });
  assert.equal(result.code, 1);
  assert.deepEqual(result.stderr, [
    "agentry: model 'openai:gpt-5-mini' could not be used: model provider \"openai\" needs the environment " +
    "variable OPENAI_API_KEY, which is not set",
  ]);
  assert.deepEqual(await listDir(out), []);
  const compatible = await run([PETSTORE, "--out", out, "--model", "openai-compatible:x"], { env: {} });
  assert.equal(compatible.code, 1);
  assert.match(compatible.stderr[0], /OPENAI_COMPATIBLE_BASE_URL/);
});

Deno.test("mcpcast --model fails after the last attempt with the violations, suggests --no-curate, and writes nothing", async () => {
  const bad = petstoreProposal();
  (bad.tools as Array<Record<string, unknown>>)[0].risk = "write";
  (bad.tools as Array<Record<string, unknown>>)[1].operations = ["nope"];
  await using model = scriptedCastModel({ curation: [bad] });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await run([PETSTORE, "--out", out, "--model", model.model], { env: model.env });
  assert.equal(result.code, 1, result.text);
  assert.match(result.stderr.at(-1)!, /^agentry: curation failed after 3 attempt\(s\): .*nope.*--no-curate/);
  assert.equal(result.stderr.filter((line) => /attempt \d\/3: \d+ violations?/.test(line)).length, 3);
  assert.deepEqual(await listDir(out), []);
});

Deno.test("mcpcast --model --no-curate keeps one tool per operation and calls no model", async () => {
  await using model = scriptedCastModel({ curation: [petstoreProposal()] });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await run([PETSTORE, "--out", out, "--model", model.model, "--no-curate", "--plan-only"], {
    env: model.env,
  });
  assert.equal(result.code, 0, result.text);
  assert.equal(loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml"))).tools.length, 7);
  assert.equal(model.requests.length, 0);
});

Deno.test("mcpcast interrupted during curation exits 130 and writes nothing", async () => {
  let release = () => {};
  const hold = new Promise<void>((resolve) => release = resolve);
  await using model = scriptedCastModel({ curation: [petstoreProposal()], hold });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const fake = fakeContext(["mcpcast", PETSTORE, "--out", out, "--model", model.model], { env: model.env });
  const running = runCli(fake.ctx);
  while (model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  fake.stop.abort("SIGINT");
  const code = await running;
  release();
  assert.equal(code, 130);
  assert.equal(fake.stderr.at(-1), "agentry: interrupted: nothing written");
  assert.deepEqual(await listDir(out), []);
});

Deno.test("mcpcast --review shows the curated plan with merged and renamed tools before asking", async () => {
  await using model = scriptedCastModel({ curation: [petstoreProposal()] });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await run([PETSTORE, "--out", out, "--model", model.model, "--review"], {
    env: model.env,
    terminal: true,
    answers: ["n"],
  });
  assert.equal(result.code, 1);
  const header = result.stderr.find((line) => line.startsWith("Tool "))!;
  assert.match(header, /^Tool\s+Risk\s+Gated\s+Route\s+Note\s+Description$/);
  assert.match(result.text, /find_pets\s+read\s+GET \/pet\/\{petId\} \+1\s+merged 2 ops\s+Find pets/);
  assert.match(
    result.text,
    /get_order\s+read\s+GET \/store\/order\/\{orderId\}\s+renamed from get_order_by_id/,
  );
  assert.match(result.text, /get_inventory\s+read\s+GET \/store\/inventory\s+Count pets/);
  assert.equal(result.stderr.at(-1), "agentry: aborted: nothing written");
  assert.deepEqual(await listDir(out), []);
});

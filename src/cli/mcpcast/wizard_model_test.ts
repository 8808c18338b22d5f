import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPlan } from "../../mcpcast/mod.ts";
import { fakeContext, listDir, tempDir } from "../_test_context.ts";
import { runCli } from "../mod.ts";
import { petstoreProposal, petUpstream, scriptedCastModel } from "./_test_model.ts";
import { checkWizardModel } from "./wizard_model.ts";

const PETSTORE = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url),
);

async function wizard(answers: Array<string | null>, env: Record<string, string>) {
  const fake = fakeContext(["mcpcast"], { answers, terminal: true, env });
  const code = await runCli(fake.ctx);
  return { code, ...fake, text: fake.stderr.join("\n") };
}

Deno.test("the guided setup's model step refuses a broken model until one works, then curates, reviews, writes and evaluates", async () => {
  await using upstream = petUpstream();
  await using model = scriptedCastModel({
    curation: [petstoreProposal()],
    tasks: [{ id: "t1", prompt: "Show me pet 7", expected_tool: "find_pets" }],
    agent: { "Show me pet 7": [{ name: "find_pets", arguments: { petId: 7 } }] },
  });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await wizard(
    [PETSTORE, upstream.url, "gpt-5", "openai:gpt-5-mini", model.model, "", "none", "", out, "y", ""],
    model.env,
  );
  assert.equal(result.code, 0, result.text);
  assert.equal(result.answersLeft(), 0);
  assert.deepEqual(result.asked.filter((q) => q.startsWith("Model")), [
    "Model [offline]: ",
    "Model [offline]: ",
    "Model [offline]: ",
  ]);
  assert.match(result.text, /--model must be PROVIDER:MODEL.* \(or answer offline\)/);
  assert.match(result.text, /OPENAI_API_KEY, which is not set \(or answer offline\)/);
  assert.match(result.text, /Step 2\/6 {2}Model/);
  assert.match(result.text, /find_pets\s+read\s+GET \/pet\/\{petId\} \+1\s+merged 2 ops/);
  assert.ok(
    result.asked.includes(
      `Evaluate the project with ${model.model} after writing (20 tasks, report in eval/)? [y/N] `,
    ),
  );
  const plan = loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml")));
  assert.deepEqual(plan.tools.map((tool) => tool.name), ["find_pets", "get_order", "get_inventory"]);
  assert.deepEqual(await listDir(join(out, "eval")), ["report.json", "report.md", "tasks.yaml"]);
  assert.match(result.text, /Agent Readiness: A \(1\/1 tasks succeeded\)/);
  assert.match(result.text, /Tool surface: \d+ tools?, tools\/list/);
  assert.match(
    result.text,
    /Same result without questions: agentry mcpcast \S+ --base-url \S+ --model openai-compatible:x --auth none --out \S+ --eval$/m,
  );
});

Deno.test("the guided setup offers the offline plan when curation fails, and writes nothing when that is refused", async () => {
  const bad = petstoreProposal();
  (bad.tools as Array<Record<string, unknown>>)[0].operations = ["nope"];
  await using model = scriptedCastModel({ curation: [bad] });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const offline = await wizard([PETSTORE, "", model.model, "", "env-token", "", "", out, "", ""], model.env);
  assert.equal(offline.code, 0, offline.text);
  assert.match(offline.text, /curation failed after 3 attempt\(s\)/);
  assert.ok(offline.asked.includes("Plan without the model instead (one tool per operation)? [Y/n] "));
  assert.equal(loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml"))).tools.length, 7);
  assert.doesNotMatch(offline.text, /Same result without questions: .*--model/);

  const no = await wizard([PETSTORE, "", model.model, "", "env-token", "n"], model.env);
  assert.equal(no.code, 1);
  assert.match(no.stderr.at(-1)!, /^agentry: curation failed after 3 attempt\(s\)/);
  assert.ok(!no.asked.some((question) => question.startsWith("Output directory")), "stopped before writing");
});

Deno.test("a wizard model is checked without calling it: its form, provider, variables and host", () => {
  const { ctx } = fakeContext([], { env: { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9" } });
  assert.match(String(checkWizardModel("nope", ctx)), /--model must be PROVIDER:MODEL/);
  assert.match(String(checkWizardModel("acme:m", ctx)), /unknown provider 'acme'/);
  assert.match(String(checkWizardModel("anthropic:claude", ctx)), /ANTHROPIC_API_KEY, which is not set/);
  const resolved = checkWizardModel("openai-compatible:m", ctx);
  assert.ok(typeof resolved !== "string");
  assert.equal(resolved.model, "openai-compatible:m");
  assert.equal(resolved.client.provider, "openai-compatible");
});

Deno.test("the guided setup takes --model as the model step's default", async () => {
  await using model = scriptedCastModel({ curation: [petstoreProposal()] });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const fake = fakeContext(["mcpcast", "-i", PETSTORE, "--model", model.model], {
    answers: ["", "", "", "none", "", out, "", ""],
    terminal: true,
    env: model.env,
  });
  const code = await runCli(fake.ctx);
  assert.equal(code, 0, fake.stderr.join("\n"));
  assert.ok(fake.asked.includes(`Model [${model.model}]: `), fake.asked.join(" | "));
  assert.ok(fake.asked.some((question) => question.startsWith("Evaluate the project")));
  assert.equal(loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml"))).tools.length, 3);
  assert.match(
    fake.stderr.join("\n"),
    /Same result without questions: .* --model openai-compatible:x --auth none/,
  );
});

Deno.test("the guided setup interrupted while the model curates writes nothing", async () => {
  let release = () => {};
  const hold = new Promise<void>((resolve) => release = resolve);
  await using model = scriptedCastModel({ curation: [petstoreProposal()], hold });
  const fake = fakeContext(["mcpcast"], {
    answers: [PETSTORE, "", model.model, "", "none"],
    terminal: true,
    env: model.env,
  });
  const running = runCli(fake.ctx);
  while (model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  fake.stop.abort("SIGINT");
  const code = await running;
  release();
  assert.equal(code, 1);
  assert.equal(fake.stderr.at(-1), "agentry: aborted: nothing written");
  assert.ok(!fake.asked.some((question) => question.startsWith("Output directory")));
});

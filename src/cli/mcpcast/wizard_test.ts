import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultAuth, loadPlan, parseSpec } from "../../mcpcast/mod.ts";
import { fakeContext, listDir, tempDir } from "../_test_context.ts";
import { runCli } from "../mod.ts";

const SPECS = new URL("../../../tests/fixtures/specs/", import.meta.url);
const PETSTORE = fileURLToPath(new URL("petstore_swagger2.yaml", SPECS));
/** A spec whose only credential is an API key in its own header: passthrough cannot relay it. */
const HEADER_KEY_SPEC = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Keyed", version: "1" },
  servers: [{ url: "https://keyed.example.com" }],
  components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } } },
  security: [{ key: [] }],
  paths: { "/items": { get: { operationId: "listItems", responses: { "200": { description: "ok" } } } } },
});

async function wizard(answers: Array<string | null>, args: string[] = [], terminal = true) {
  const fake = fakeContext(["mcpcast", ...args], { answers, terminal });
  const code = await runCli(fake.ctx);
  return { code, ...fake, text: fake.stderr.join("\n") };
}

Deno.test("the guided setup asks step by step, shows what it found, and writes the project", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await wizard([PETSTORE, "", "", "2", "env-token", "", out, ""]);
  assert.equal(result.code, 0, result.text);
  assert.deepEqual(result.asked, [
    "Spec (file path or http(s) URL): ",
    "Base URL [http://petstore.swagger.io/v2]: ",
    "Model [offline]: ",
    "Profile [read-only]: ",
    "Auth [passthrough]: ",
    "API name [petstore]: ",
    "Output directory [./petstore-mcp]: ",
    `Write the project to ${out}? [Y/n] `,
  ]);
  assert.equal(result.answersLeft(), 0);
  for (
    const shown of [
      /Swagger Petstore 1\.0\.0/,
      /20 operations: 7 read · 10 write · 3 destructive/,
      /credential: header 'Authorization' \(2 security scheme\(s\) in the spec\)/,
      /1\) read-only\s+7 tools, 13 dropped\s+reads only/,
      /2\) standard\s+16 tools \(9 gated\), 4 dropped/,
      /env-token\s+personal use/,
      /9 gated tool\(s\): the calling client asks its user/,
      /Step 5\/6 {2}Review/,
      /add_pet\s+write\s+yes\s+POST \/pet/,
      /Not exposed \(4\)/,
      /16 tools kept \(9 approval-gated\), 4 operations dropped/,
      /Same result without questions: agentry mcpcast \S+petstore_swagger2\.yaml --profile standard --auth env-token --out \S+pets$/m,
    ]
  ) assert.match(result.text, shown);
  const plan = loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml")));
  assert.equal(plan.profile, "standard");
  assert.equal(plan.api.auth, "env-token");
  assert.ok((await listDir(out)).includes("main.ts"));
});

Deno.test("the guided setup asks again after a bad source, a bad base URL or a bad name, and asks for approval with api-key", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "shop");
  const result = await wizard([
    join(dir.path, "missing.yaml"),
    PETSTORE,
    "not a url",
    "https://pets.example.com/v2",
    "",
    "full",
    "3",
    "",
    "Bad Name",
    "shop",
    "",
    "y",
  ], ["--out", out]);
  assert.equal(result.code, 0, result.text);
  assert.match(result.text, /spec not found: /);
  assert.match(result.text, /give an absolute http\(s\) URL/);
  assert.match(result.text, /use lower-case letters, digits/);
  assert.ok(result.asked.includes("Approval [pending]: "));
  assert.ok(result.asked.includes(`Output directory [${out}]: `));
  const plan = loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml")));
  assert.equal(plan.api.name, "shop");
  assert.equal(plan.api.base_url, "https://pets.example.com/v2");
  assert.equal(plan.api.auth, "api-key");
  assert.equal(plan.profile, "full");
  assert.match(
    result.text,
    /--base-url https:\/\/pets\.example\.com\/v2 --profile full --auth api-key --name shop/,
  );
});

Deno.test("the guided setup starts from SOURCE and asks before writing into a folder that is not a project", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "notes.txt"), "mine");
  const other = join(dir.path, "fresh");
  const result = await wizard(["", "", "", "", "", dir.path, "n", other, ""], ["-i", PETSTORE]);
  assert.equal(result.code, 0, result.text);
  assert.ok(!result.asked.includes("Spec (file path or http(s) URL): "));
  assert.ok(
    result.asked.some((q) =>
      /is not empty and is not an mcpcast project: write into it anyway\? \[y\/N\]/.test(q)
    ),
  );
  assert.deepEqual(await listDir(dir.path), ["fresh", "notes.txt"]);
  assert.ok((await listDir(other)).includes("mcpcast.plan.yaml"));
});

Deno.test("the guided setup writes nothing when the input ends or the answer is no", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const ended = await wizard([PETSTORE, "", "2"]);
  assert.equal(ended.code, 1);
  assert.equal(ended.stderr.at(-1), "agentry: aborted: nothing written");
  const no = await wizard([PETSTORE, "", "", "", "", "", out, "n"]);
  assert.ok(no.asked.includes("Auth [passthrough]: "), no.asked.join("|"));
  assert.equal(no.code, 1);
  assert.deepEqual(await listDir(out), []);
});

Deno.test("the guided setup refuses to start unless stdin and stdout are terminals", async () => {
  const result = await wizard([PETSTORE], [], false);
  assert.equal(result.code, 2);
  assert.deepEqual(result.asked, []);
  assert.match(result.stderr[0], /guided setup runs only when stdin and stdout are a terminal/);
});

Deno.test("the guided setup offers the auth mode the command takes by default, with and without security in the spec", async () => {
  await using dir = await tempDir();
  const keyed = join(dir.path, "keyed.json");
  await Deno.writeTextFile(keyed, HEADER_KEY_SPEC);
  const cases: Array<[string, string]> = [
    [fileURLToPath(new URL("styles_oas31.yaml", SPECS)), "none"],
    [PETSTORE, "passthrough"],
    [fileURLToPath(new URL("train_travel_oas31.yaml", SPECS)), "passthrough"],
    [keyed, "env-token"],
  ];
  for (const [spec, expected] of cases) {
    assert.equal(defaultAuth(await parseSpec(spec)), expected, spec);
    const byCommand = join(dir.path, `${expected}-${cases.findIndex(([s]) => s === spec)}-cli`);
    const command = fakeContext(["mcpcast", spec, "--plan-only", "--out", byCommand]);
    assert.equal(await runCli(command.ctx), 0, command.stderr.join("\n"));
    const commandAuth = loadPlan(await Deno.readTextFile(join(byCommand, "mcpcast.plan.yaml"))).api.auth;
    const byWizard = `${byCommand}-wizard`;
    const result = await wizard([spec, "", "", "", "", "", byWizard, ""]);
    assert.equal(result.code, 0, result.text);
    assert.ok(result.asked.includes(`Auth [${commandAuth}]: `), `${spec}: ${result.asked.join(" | ")}`);
    const wizardAuth = loadPlan(await Deno.readTextFile(join(byWizard, "mcpcast.plan.yaml"))).api.auth;
    assert.deepEqual([commandAuth, wizardAuth], [expected, expected], spec);
  }
});

Deno.test("the guided setup offers a tag or path choice for a spec with more than 50 operations", async () => {
  await using dir = await tempDir();
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 60; i++) {
    const tag = i < 40 ? "orders" : "users";
    paths[`/${tag}/${i}`] = {
      get: { operationId: `get_${tag}_${i}`, tags: [tag], responses: { "200": { description: "ok" } } },
    };
  }
  const spec = join(dir.path, "big.json");
  await Deno.writeTextFile(
    spec,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Big", version: "1" },
      servers: [{ url: "https://big.example.com" }],
      paths,
    }),
  );
  const out = join(dir.path, "big");
  const result = await wizard([spec, "", "teams", "users", "", "", "", "", out, ""]);
  assert.equal(result.code, 0, result.text);
  assert.match(result.text, /tags: orders \(40\), users \(20\)/);
  assert.match(result.text, /no tag 'teams' in the spec/);
  assert.match(result.text, /20 of 60 operations kept/);
  assert.match(result.text, /Same result without questions: agentry mcpcast \S+big\.json .*--tag users/m);
  const plan = loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml")));
  assert.equal(plan.tools.length, 20);
  assert.ok(
    plan.tools.every((tool) => tool.routes.every((route) => route.path.startsWith("/users/"))),
    "users only",
  );
});

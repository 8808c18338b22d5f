import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPlan } from "../../mcpcast/mod.ts";
import { PLAN_HEADER } from "../../mcpcast/plan/mod.ts";
import { fakeContext, listDir, tempDir } from "../_test_context.ts";
import { runCli } from "../mod.ts";

const PETSTORE = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url),
);

async function run(args: string[], options: Parameters<typeof fakeContext>[1] = {}) {
  const fake = fakeContext(["mcpcast", ...args], options);
  const code = await runCli(fake.ctx);
  return { code, ...fake };
}

async function readTree(dir: string, prefix = ""): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of Deno.readDir(join(dir, prefix))) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory) Object.assign(files, await readTree(dir, path));
    else files[path] = await Deno.readTextFile(join(dir, path));
  }
  return files;
}

Deno.test("mcpcast SOURCE writes the project and summarises kept, gated and dropped tools with reasons", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await run([PETSTORE, "--out", out, "--profile", "standard", "--auth", "env-token"]);
  assert.equal(result.code, 0, result.stderr.join("\n"));
  const files = await readTree(out);
  for (const name of ["mcpcast.plan.yaml", "deno.json", "main.ts", "README.md"]) {
    assert.ok(name in files, name);
  }
  const plan = loadPlan(files["mcpcast.plan.yaml"]);
  assert.equal(plan.profile, "standard");
  assert.equal(plan.api.auth, "env-token");
  assert.equal(result.stderr[0], `mcpcast: petstore → ${out}`);
  assert.match(
    result.stderr[1],
    /^ {2}16 tools kept \(9 approval-gated\), 4 operations dropped; profile standard/,
  );
  assert.ok(result.stderr.includes("    findPetsByTags: deprecated in spec"));
  assert.ok(result.stderr.includes("    deletePet: destructive operation excluded by profile 'standard'"));
  assert.ok(result.stderr.some((line) => /^ {2}files written \(\d+\): .*mcpcast\.plan\.yaml/.test(line)));
  assert.deepEqual(result.stdout, [], "nothing on stdout without --json");
});

Deno.test("mcpcast writes into ./<api name>-mcp by default", async () => {
  await using dir = await tempDir();
  const cwd = Deno.cwd();
  Deno.chdir(dir.path);
  try {
    const result = await run([PETSTORE, "--plan-only"]);
    assert.equal(result.code, 0, result.stderr.join("\n"));
    assert.deepEqual(await listDir(join(dir.path, "petstore-mcp")), ["mcpcast.plan.yaml"]);
    assert.equal(result.stderr[0], "mcpcast: petstore → ./petstore-mcp (plan only)");
  } finally {
    Deno.chdir(cwd);
  }
});

Deno.test("mcpcast --plan-only writes only the plan, and --json prints one summary object on stdout", async () => {
  await using dir = await tempDir();
  const result = await run([PETSTORE, "--out", dir.path, "--plan-only", "--json", "--name", "pets"]);
  assert.equal(result.code, 0, result.stderr.join("\n"));
  assert.deepEqual(await listDir(dir.path), ["mcpcast.plan.yaml"]);
  assert.equal(result.stdout.length, 1);
  const json = JSON.parse(result.stdout[0]);
  assert.deepEqual(json.counts, { kept: 7, gated: 0, dropped: 13 });
  assert.equal(json.api, "pets");
  assert.equal(json.out_dir, dir.path);
  assert.equal(json.plan_only, true);
  assert.equal(json.profile, "read-only");
  assert.equal(json.auth, "passthrough");
  assert.deepEqual(json.files, ["mcpcast.plan.yaml"]);
  assert.deepEqual(json.tools[0], {
    name: "find_pets_by_status",
    risk: "read",
    requires_approval: false,
    routes: ["GET /pet/findByStatus"],
  });
  assert.ok(json.dropped.some((op: { operation_id: string }) => op.operation_id === "addPet"));
});

Deno.test("mcpcast --plan FILE regenerates from an edited plan, keeping the file as written beside it", async () => {
  await using dir = await tempDir();
  assert.equal((await run([PETSTORE, "--out", dir.path, "--plan-only", "--profile", "standard"])).code, 0);
  const planPath = join(dir.path, "mcpcast.plan.yaml");
  const edited = (await Deno.readTextFile(planPath))
    .replace(
      "description: Add a new pet to the store",
      "description: Register a pet the shop just received",
    ) +
    "# my note\n";
  await Deno.writeTextFile(planPath, edited);
  const result = await run(["--plan", planPath, "--json"]);
  assert.equal(result.code, 0, result.stderr.join("\n"));
  const files = await readTree(dir.path);
  assert.equal(files["mcpcast.plan.yaml"], edited, "the plan file is left as the user wrote it");
  assert.ok(
    Object.entries(files).some(([name, text]) =>
      name !== "mcpcast.plan.yaml" && text.includes("Register a pet")
    ),
    "the edited description reaches the generated code",
  );
  const json = JSON.parse(result.stdout[0]);
  assert.equal(json.out_dir, dir.path);
  assert.ok(!json.files.includes("mcpcast.plan.yaml"));
  assert.deepEqual(json.removed, []);
  assert.ok(Array.isArray(json.kept));

  await using other = await tempDir();
  const copy = await run(["--plan", planPath, "--out", other.path]);
  assert.equal(copy.code, 0, copy.stderr.join("\n"));
  const copied = loadPlan(await Deno.readTextFile(join(other.path, "mcpcast.plan.yaml")));
  assert.equal(copied.tools[0].description, "Register a pet the shop just received");
  assert.ok((await Deno.readTextFile(join(other.path, "mcpcast.plan.yaml"))).startsWith(PLAN_HEADER));
});

Deno.test("mcpcast refuses a non-empty directory that is not a project unless --force, with one line", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "notes.txt"), "mine");
  const refused = await run([PETSTORE, "--out", dir.path]);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr.length, 1, refused.stderr.join("\n"));
  assert.match(refused.stderr[0], /^agentry: \S+ is not empty and has no mcpcast\.plan\.yaml/);
  assert.match(
    refused.stderr[0],
    /or pass --force to write there$/,
    "names the flag as typed",
  );
  assert.deepEqual(await listDir(dir.path), ["notes.txt"], "nothing written");
  const planOnly = await run([PETSTORE, "--out", dir.path, "--plan-only"]);
  assert.equal(planOnly.code, 1);
  assert.match(planOnly.stderr[0], /is not empty and is not an mcpcast project/);
  const forced = await run([PETSTORE, "--out", dir.path, "--force"]);
  assert.equal(forced.code, 0, forced.stderr.join("\n"));
  assert.equal(await Deno.readTextFile(join(dir.path, "notes.txt")), "mine");
});

Deno.test("mcpcast SOURCE never replaces an existing plan without --force", async () => {
  await using dir = await tempDir();
  assert.equal((await run([PETSTORE, "--out", dir.path, "--plan-only"])).code, 0);
  const again = await run([PETSTORE, "--out", dir.path, "--profile", "full", "--auth", "env-token"]);
  assert.equal(again.code, 1);
  assert.match(
    again.stderr[0],
    /already has mcpcast\.plan\.yaml, which may hold your edits: regenerate from it/,
  );
  assert.equal(loadPlan(await Deno.readTextFile(join(dir.path, "mcpcast.plan.yaml"))).profile, "read-only");
  const forced = await run([
    PETSTORE,
    "--out",
    dir.path,
    "--profile",
    "full",
    "--auth",
    "env-token",
    "--force",
  ]);
  assert.equal(forced.code, 0, forced.stderr.join("\n"));
  assert.equal(loadPlan(await Deno.readTextFile(join(dir.path, "mcpcast.plan.yaml"))).profile, "full");
});

Deno.test("mcpcast reports invalid specs, plans given as specs and invalid plans in one line, exit 1", async () => {
  await using dir = await tempDir();
  const missing = await run([join(dir.path, "nope.yaml"), "--out", join(dir.path, "o")]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr[0], /^agentry: spec not found: /);
  assert.equal((await run([PETSTORE, "--out", dir.path, "--plan-only"])).code, 0);
  const planPath = join(dir.path, "mcpcast.plan.yaml");
  const asSpec = await run([planPath, "--out", join(dir.path, "o")]);
  assert.equal(asSpec.code, 1);
  assert.match(
    asSpec.stderr[0],
    /is an mcpcast plan, not a spec: regenerate the project from it with 'agentry mcpcast --plan /,
  );
  await Deno.writeTextFile(
    planPath,
    "version: 1\napi: {name: Pets!, base_url: relative}\ntools: []\nbogus: 1\n",
  );
  const invalid = await run(["--plan", planPath]);
  assert.equal(invalid.code, 1);
  assert.equal(invalid.stderr.length, 1, invalid.stderr.join("\n"));
  assert.match(invalid.stderr[0], /^agentry: .*mcpcast\.plan\.yaml: invalid plan: .*api\.name.*; /);
  const userinfo = await run([PETSTORE, "--base-url", "https://ops:s3cret@api.example.com", "--plan-only"]);
  assert.equal(userinfo.code, 1);
  assert.equal(userinfo.stderr.length, 1);
  assert.match(userinfo.stderr[0], /api\.example\.com/);
  assert.doesNotMatch(userinfo.stderr[0], /s3cret/);
  const gone = await run(["--plan", join(dir.path, "gone.yaml")]);
  assert.equal(gone.code, 1);
  assert.match(gone.stderr[0], /gone\.yaml: no such plan file/);
});

Deno.test("mcpcast --review shows the table and writes only after a yes; it needs a terminal", async () => {
  await using dir = await tempDir();
  const notTerminal = await run([PETSTORE, "--out", dir.path, "--review"]);
  assert.equal(notTerminal.code, 2);
  assert.match(notTerminal.stderr[0], /--review asks before writing and needs a terminal/);
  const no = await run([PETSTORE, "--out", dir.path, "--review"], { terminal: true, answers: ["n"] });
  assert.equal(no.code, 1);
  assert.ok(no.stderr.some((line) => /^Tool\s+Risk\s+Gated\s+Route/.test(line)));
  assert.deepEqual(no.asked, [`Write the project to ${dir.path}? [Y/n] `]);
  assert.equal(no.stderr.at(-1), "agentry: aborted: nothing written");
  assert.deepEqual(await listDir(dir.path), []);
  const yes = await run([PETSTORE, "--out", dir.path, "--review", "--plan-only"], {
    terminal: true,
    answers: [""],
  });
  assert.equal(yes.code, 0, yes.stderr.join("\n"));
  assert.deepEqual(await listDir(dir.path), ["mcpcast.plan.yaml"]);
});

Deno.test("mcpcast without SOURCE off a terminal is a usage error", async () => {
  const result = await run([]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr.length, 1);
  assert.match(result.stderr[0], /mcpcast needs SOURCE or --plan FILE \(the guided setup runs only when/);
});

Deno.test("mcpcast --help prints on stdout and the main help lists the command", async () => {
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout[0], /^Usage: agentry mcpcast SOURCE/);
  const main = fakeContext(["--help"]);
  await runCli(main.ctx);
  assert.match(main.stdout[0], /mcpcast SOURCE/);
});

Deno.test("mcpcast --tag converts only that area of the spec; a tag that matches nothing lists the spec's", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "store");
  const result = await run([PETSTORE, "--out", out, "--profile", "full", "--tag", "store", "--plan-only"]);
  assert.equal(result.code, 0, result.stderr.join("\n"));
  const plan = loadPlan(await Deno.readTextFile(join(out, "mcpcast.plan.yaml")));
  const paths = plan.tools.flatMap((tool) => tool.routes.map((route) => route.path));
  assert.ok(paths.length > 0 && paths.every((path) => path.startsWith("/store")), paths.join());
  const none = await run([PETSTORE, "--out", join(dir.path, "none"), "--tag", "gists", "--plan-only"]);
  assert.equal(none.code, 1);
  assert.match(
    none.stderr.join("\n"),
    /no operation of the spec matches the selection \(tag 'gists'\); its tags: pet, store, user/,
  );
});

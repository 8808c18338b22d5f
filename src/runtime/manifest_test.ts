import assert from "node:assert/strict";
import { join } from "node:path";
import { loadManifests, manifestEnvReferences, ManifestError, parseManifest } from "./manifest.ts";

interface TempDir extends AsyncDisposable {
  path: string;
  write(name: string, text: string): Promise<void>;
}

async function tempDir(): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix: "agentry_manifest_" });
  return {
    path,
    write: (name, text) => Deno.writeTextFile(join(path, name), text),
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

async function loadError(dir: string): Promise<ManifestError> {
  try {
    await loadManifests(dir);
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  assert.fail("expected a ManifestError");
}

const REPORTS_YAML = `
name: reports
start: true
version: "1"
model: openai:gpt-5
instructions: Summarise \${NOT_A_VARIABLE_USE}
servers:
  docs:
    url: https://mcp.example/docs
    bearer_token: \${DOCS_TOKEN}
triggers:
  - type: cron
    cron_expression: "0 9 * * *"
`;

Deno.test("YAML and JSON manifests load in file name order with resolved configs", async () => {
  await using dir = await tempDir();
  await dir.write("b_reports.agent.yaml", REPORTS_YAML);
  await dir.write(
    "a_watch.agent.json",
    JSON.stringify({ name: "watcher", budget: { max_runs_per_day: 10 } }),
  );
  await dir.write("c_other.agent.yml", "name: other\n");
  await dir.write("notes.yaml", "not: a manifest\n");
  await dir.write("readme.agent.txt", "ignored");
  const manifests = await loadManifests(dir.path);
  assert.deepEqual(manifests.map((m) => [m.name, m.start]), [["watcher", false], ["reports", true], [
    "other",
    false,
  ]]);
  assert.equal(manifests[0].file, join(dir.path, "a_watch.agent.json"));
  assert.equal(manifests[0].config.budget.max_runs_per_day, 10);
  assert.equal(manifests[1].config.triggers[0].type, "cron");
  assert.equal(manifests[1].config.inbox.max_messages, 50);
  const docs = manifests[1].config.servers.docs;
  assert.equal(docs.url !== undefined ? docs.bearer_token : undefined, "${DOCS_TOKEN}");
  assert.equal("name" in manifests[1].config, false);
});

Deno.test("manifestEnvReferences lists referenced variables outside instructions", () => {
  const manifest = parseManifest("x.agent.yaml", {
    name: "x",
    instructions: "Mention ${IGNORED}",
    servers: { a: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } } },
    secrets: { secrets: { K: "${TOKEN}" } },
  });
  assert.deepEqual(manifestEnvReferences(manifest), ["HOST", "TOKEN"]);
});

Deno.test("an unknown key is refused, naming the file and the field", async () => {
  await using dir = await tempDir();
  await dir.write("bad.agent.yaml", "name: bad\nworld: {}\n");
  const error = await loadError(dir.path);
  assert.equal(error.file, join(dir.path, "bad.agent.yaml"));
  assert.equal(error.issues[0].field, "world");
  assert.match(error.issues[0].expected, /^no such field; allowed: .*name, start, version$/);
  assert.match(error.message, /bad\.agent\.yaml: invalid manifest\n- world: no such field/);
});

Deno.test("nested config problems are reported with their paths", async () => {
  await using dir = await tempDir();
  await dir.write(
    "x.agent.yaml",
    "name: x\ntriggers:\n  - type: cron\n    cron_expression: nope\n    topic: a\n",
  );
  const error = await loadError(dir.path);
  assert.deepEqual(error.issues.map((issue) => issue.field), [
    "triggers[0].cron_expression",
    "triggers[0].topic",
  ]);
});

Deno.test("name is required and follows the process name rule; start and version are strict", () => {
  const problem = (document: unknown) => {
    try {
      parseManifest("m.agent.yaml", document);
    } catch (error) {
      if (error instanceof ManifestError) return error.issues[0];
      throw error;
    }
    assert.fail("expected a ManifestError");
  };
  assert.deepEqual(problem({}), {
    field: "name",
    expected: "a process name: a letter, then up to 63 letters, digits, _ or - (missing)",
  });
  assert.equal(problem({ name: "9lives" }).field, "name");
  assert.equal(problem({ name: "ok", start: "yes" }).expected, "true or false (got a string)");
  assert.match(problem({ name: "ok", version: 1 }).expected, /the string "1".*\(got a number\)/);
  assert.match(problem([]).expected, /a mapping of manifest fields/);
});

Deno.test("the same name in two files is refused", async () => {
  await using dir = await tempDir();
  await dir.write("a.agent.yaml", "name: twin\n");
  await dir.write("b.agent.json", '{"name": "twin"}');
  const error = await loadError(dir.path);
  assert.equal(error.file, join(dir.path, "b.agent.json"));
  assert.equal(error.issues[0].field, "name");
  assert.match(error.issues[0].expected, /a\.agent\.yaml uses it/);
});

Deno.test("bad YAML, bad JSON and empty files are refused with the file named", async () => {
  await using dir = await tempDir();
  await dir.write("a.agent.yaml", "name: x\n  bad: [indent\n");
  const yamlError = await loadError(dir.path);
  assert.equal(yamlError.file, join(dir.path, "a.agent.yaml"));
  assert.match(yamlError.issues[0].expected, /^valid YAML/);
  await Deno.remove(join(dir.path, "a.agent.yaml"));
  await dir.write("b.agent.json", "{name: x}");
  assert.match((await loadError(dir.path)).issues[0].expected, /^valid JSON/);
  await Deno.remove(join(dir.path, "b.agent.json"));
  await dir.write("c.agent.yaml", "");
  assert.match((await loadError(dir.path)).issues[0].expected, /got an empty document/);
});

Deno.test("duplicate keys in YAML are refused", async () => {
  await using dir = await tempDir();
  await dir.write("a.agent.yaml", "name: x\nname: y\n");
  assert.match((await loadError(dir.path)).issues[0].expected, /^valid YAML/);
});

Deno.test("an empty directory has no manifests and a missing one is an error", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await loadManifests(dir.path), []);
  const error = await loadError(join(dir.path, "missing"));
  assert.equal(error.issues[0].field, "(directory)");
});

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { fakeContext } from "../_test_context.ts";
import { Prompter } from "../prompter.ts";
import { parseSource } from "./source.ts";
import { equivalentCommand } from "./preview.ts";
import { chooseSelection, SELECT_ABOVE } from "./wizard_select.ts";

const PETSTORE = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url),
);

async function select(answers: string[], above = 10) {
  const fake = fakeContext(["mcpcast"], { answers, terminal: true });
  const spec = await parseSource(PETSTORE, { signal: fake.ctx.signal, env: fake.ctx.env });
  const selection = await chooseSelection(new Prompter(fake.ctx), spec, above);
  return { selection, ...fake, text: fake.stderr.join("\n") };
}

Deno.test("the guided setup keeps a small spec whole without asking", async () => {
  const result = await select([], SELECT_ABOVE);
  assert.equal(result.asked.length, 0);
  assert.equal(result.selection.spec.operations.length, 20);
  assert.deepEqual([result.selection.tags, result.selection.paths], [[], []]);
});

Deno.test("the guided setup lists a large spec's tags, asks again after a wrong tag, and keeps the tags chosen", async () => {
  const result = await select(["pet, dogs", "pet,store"]);
  assert.equal(result.answersLeft(), 0);
  assert.equal(result.asked.length, 2);
  assert.match(result.text, /tags: pet \(8\), user \(8\), store \(4\)/);
  assert.match(result.text, /no tag 'dogs' in the spec/);
  assert.match(result.text, /12 of 20 operations kept/);
  assert.deepEqual(result.selection.tags, ["pet", "store"]);
  assert.ok(
    result.selection.spec.operations.every((op) => op.tags.includes("pet") || op.tags.includes("store")),
  );
  const command = equivalentCommand({
    source: "spec.yaml",
    profile: "read-only",
    auth: "none",
    force: false,
    ...result.selection,
  });
  assert.match(command, /spec\.yaml --tag pet --tag store --auth none$/);
});

Deno.test("the guided setup keeps a path prefix, refuses one that matches nothing, and keeps all by default", async () => {
  const byPath = await select(["/nowhere", "/user"]);
  assert.match(byPath.text, /no operation of the spec matches the selection \(path '\/nowhere'\)/);
  assert.deepEqual(byPath.selection.paths, ["/user"]);
  assert.ok(byPath.selection.spec.operations.every((op) => op.path.startsWith("/user")));
  const all = await select([""]);
  assert.deepEqual(all.asked, ["Keep (tags, comma list; a /path prefix; or all) [all]: "]);
  assert.equal(all.selection.spec.operations.length, 20);
});

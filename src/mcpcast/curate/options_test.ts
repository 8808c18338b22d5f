import assert from "node:assert/strict";
import { test } from "node:test";
import { McpcastError } from "../errors.ts";
import { openapi } from "../_test_parse.ts";
import { parseSpec } from "../parse/mod.ts";
import { curate } from "./curate.ts";
import type { CurateOptions } from "./options.ts";
import { goodProposal, petSpec, scripted } from "./_test_curate.ts";

/** Asserts `curate` refuses `options` with an McpcastError matching `message`, before any model call. */
async function assertRefused(
  options: (complete: CurateOptions["complete"]) => CurateOptions,
  message: RegExp,
) {
  const script = scripted(goodProposal());
  await assert.rejects(
    curate(await petSpec(), options(script.complete)),
    (error: unknown) => error instanceof McpcastError && message.test(error.message),
  );
  assert.equal(script.users.length, 0, "no model call was made");
}

test("curate needs exactly one of model and complete, and env with model only", async () => {
  await assertRefused(() => ({}), /exactly one of `model`/);
  await assertRefused((complete) => ({ complete, model: "openai:gpt-5-mini" }), /exactly one of `model`/);
  await assertRefused(() => ({ model: "openai:gpt-5-mini" }), /`model` needs `env`/);
  await assertRefused(
    (complete) => ({ complete, env: () => undefined }),
    /with `complete` they are not used/,
  );
  await assertRefused((complete) => ({ complete, fetch }), /with `complete` they are not used/);
  await assertRefused(
    () => ({ model: "nowhere:x", env: () => undefined }),
    /model 'nowhere:x' could not be used/,
  );
});

test("curate refuses unknown option keys, bounds below 1 and unknown profiles", async () => {
  await assertRefused(
    (complete) => ({ complete, maxtools: 3 } as CurateOptions),
    /curate: unknown option 'maxtools' \(allowed: model, complete/,
  );
  await assertRefused(
    (complete) => ({ complete, maxTools: 0 }),
    /max_tools must be an integer of at least 1/,
  );
  await assertRefused((complete) => ({ complete, maxAttempts: 1.5 }), /max_attempts must be an integer/);
  await assertRefused(
    (complete) => ({ complete, profile: "everything" as CurateOptions["profile"] }),
    /profile must be one of read-only, standard, full/,
  );
});

test("invalid API settings are refused before any model call", async () => {
  await assertRefused(
    (complete) => ({ complete, name: "Bad Name" }),
    /invalid API settings:\n- name: api name/,
  );
  await assertRefused(
    (complete) => ({ complete, auth: "env-token", approval: "pending" }),
    /invalid API settings/,
  );
});

test("passthrough that cannot relay the spec's credential is refused as buildPlan refuses it", async () => {
  const spec = await parseSpec(openapi({
    "/items": { get: { operationId: "listItems", responses: { "200": { description: "ok" } } } },
  }, {
    servers: [{ url: "https://api.example.com" }],
    components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } } },
    security: [{ key: [] }],
  }));
  const script = scripted(goodProposal());
  await assert.rejects(
    curate(spec, { complete: script.complete, auth: "passthrough" }),
    /header 'X-API-Key', which --auth passthrough cannot relay/,
  );
  assert.equal(script.users.length, 0);
});

test("a spec with nothing mappable is refused, naming the first reason", async () => {
  const spec = await petSpec();
  spec.operations = spec.operations.filter((op) => op.operationId === "uploadPhoto");
  const script = scripted(goodProposal());
  await assert.rejects(
    curate(spec, { complete: script.complete }),
    /nothing to curate: none of the spec's 1 operation\(s\) can become a tool under profile 'read-only' \(first: uploadPhoto: unsupported/,
  );
  assert.equal(script.users.length, 0);
});

test("a prompt over 600,000 characters is refused with advice to narrow the spec", async () => {
  const spec = await petSpec();
  spec.operations[0].summary = "List pets. ".repeat(60_000);
  const script = scripted(goodProposal());
  await assert.rejects(
    curate(spec, { complete: script.complete }),
    /over the limit of 600000: narrow the spec first \(curate one tag or path prefix at a time: --tag or --path, or selectOperations\), or convert without a model \(--no-curate\)/,
  );
  assert.equal(script.users.length, 0);
});

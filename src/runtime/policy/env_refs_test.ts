import assert from "node:assert/strict";
import {
  findEnvReferences,
  isPlainObject,
  resolveEnvReferences,
  UnresolvedEnvReferenceError,
} from "./env_refs.ts";

const ENV: Record<string, string> = { TOKEN: "t0k", HOST: "mcp.example", EMPTY: "" };
const lookup = (name: string) => ENV[name];

Deno.test("references are found in nested objects and arrays with their paths", () => {
  const refs = findEnvReferences({
    servers: { gh: { url: "https://${HOST}/gh", headers: { Authorization: "Bearer ${TOKEN}" } } },
    triggers: [{ type: "message", topic: "t" }, { type: "event", event_type: "${EVENT}" }],
  });
  assert.deepEqual(refs, [
    { path: "servers.gh.url", variable: "HOST" },
    { path: "servers.gh.headers.Authorization", variable: "TOKEN" },
    { path: "triggers[1].event_type", variable: "EVENT" },
  ]);
});

Deno.test("references in object keys are found at the entry's path", () => {
  assert.deepEqual(findEnvReferences({ env: { "${KEY_NAME}": "v" } }), [
    { path: 'env["${KEY_NAME}"]', variable: "KEY_NAME" },
  ]);
});

Deno.test("skipped paths are not searched", () => {
  const body = { config: { instructions: "use ${A}", model: "${B}" } };
  const refs = findEnvReferences(body, { skip: (path) => path === "config.instructions" });
  assert.deepEqual(refs, [{ path: "config.model", variable: "B" }]);
});

Deno.test("non-plain objects, numbers and cycles are left alone", () => {
  class Scanner {
    pattern = "${HIDDEN}";
  }
  const cyclic: Record<string, unknown> = { a: "${A}" };
  cyclic.self = cyclic;
  assert.deepEqual(findEnvReferences({ scanner: new Scanner(), n: 5, ok: true }), []);
  assert.deepEqual(findEnvReferences(cyclic), [{ path: "a", variable: "A" }]);
  assert.equal(isPlainObject(new Scanner()), false);
  assert.equal(isPlainObject(Object.create(null)), true);
});

Deno.test("resolving returns a deep copy with every reference replaced", () => {
  const input = { url: "https://${HOST}/x", list: ["${TOKEN}", 3], keys: { "${TOKEN}": "${EMPTY}" } };
  const output = resolveEnvReferences(input, lookup);
  assert.deepEqual(output, { url: "https://mcp.example/x", list: ["t0k", 3], keys: { t0k: "" } });
  assert.equal(input.url, "https://${HOST}/x");
  assert.notEqual(output.list, input.list);
});

Deno.test("resolving keeps functions, class instances and skipped paths by reference", () => {
  const callback = () => 1;
  const scanner = new (class {
    scanText() {
      return "${TOKEN}";
    }
  })();
  const input = { hooks: [{ callback }], guardrails: scanner, instructions: "${TOKEN}" };
  const output = resolveEnvReferences(input, lookup, { skip: (path) => path === "instructions" });
  assert.equal(output.hooks[0].callback, callback);
  assert.equal(output.guardrails, scanner);
  assert.equal(output.instructions, "${TOKEN}");
});

Deno.test("resolved values are not expanded again", () => {
  const output = resolveEnvReferences({ a: "${X}" }, (name) => (name === "X" ? "${TOKEN}" : undefined));
  assert.equal(output.a, "${TOKEN}");
});

Deno.test("an unresolvable reference throws with variable and path but a message without the name", () => {
  assert.throws(
    () => resolveEnvReferences({ servers: { gh: { bearer_token: "${MISSING_VAR}" } } }, lookup),
    (thrown: unknown) => {
      assert.ok(thrown instanceof UnresolvedEnvReferenceError);
      assert.equal(thrown.variable, "MISSING_VAR");
      assert.equal(thrown.path, "servers.gh.bearer_token");
      assert.ok(!thrown.message.includes("MISSING_VAR"));
      return true;
    },
  );
});

Deno.test("resolving a cyclic value throws a TypeError", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => resolveEnvReferences(cyclic, lookup), TypeError);
});

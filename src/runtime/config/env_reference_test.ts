import assert from "node:assert/strict";
import { envReferenceNames, envReferencePattern, hasEnvReference } from "./env_reference.ts";

Deno.test("envReferenceNames lists every ${VAR} in order, repeats kept", () => {
  assert.deepEqual(envReferenceNames("Bearer ${TOKEN} for ${_user1} and ${TOKEN}"), [
    "TOKEN",
    "_user1",
    "TOKEN",
  ]);
});

Deno.test("malformed references are not references", () => {
  assert.deepEqual(envReferenceNames("$TOKEN ${1ABC} ${A-B} ${} ${ A }"), []);
  assert.equal(hasEnvReference("cost is $5"), false);
  assert.equal(hasEnvReference("x${HOME}y"), true);
});

Deno.test("envReferencePattern returns a fresh global pattern each time", () => {
  const first = envReferencePattern();
  first.exec("${A} ${B}");
  assert.notEqual(first.lastIndex, 0);
  assert.equal(envReferencePattern().lastIndex, 0);
});

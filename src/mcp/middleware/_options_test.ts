import assert from "node:assert/strict";
import { callerKey, callerParts, composeKey } from "./_options.ts";

Deno.test("a caller key is the composed key of the caller's parts, tenant or not", () => {
  const callers: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    [undefined, "ops"],
    ["", "ops"],
    ["acme", "ops"],
    ["a|b", "1:c"],
    ["acme", undefined],
  ];
  for (const [tenant, client] of callers) {
    assert.equal(callerKey(tenant, client), composeKey(callerParts(tenant, client)));
  }
});

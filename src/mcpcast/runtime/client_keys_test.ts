import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { envOf } from "./_test_runtime.ts";
import { readClientKeys } from "./client_keys.ts";

const SECRET = "k-3c9d0a71e5";

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof McpcastError);
    return error.message;
  }
  assert.fail("expected a refusal");
}

Deno.test("client keys come from MCPCAST_CLIENT_KEYS; documentation keys and placeholders are refused", () => {
  const keys = readClientKeys(envOf({
    MCPCAST_CLIENT_KEYS: JSON.stringify({
      [SECRET]: { client_id: "ops", tenant_id: "acme", roles: ["approver"] },
    }),
  }));
  assert.deepEqual(keys[SECRET], { client_id: "ops", tenant_id: "acme", roles: ["approver"] });
  const bad = [
    undefined,
    "{}",
    "[",
    JSON.stringify({ "sk-acme": { client_id: "a", tenant_id: "t" } }),
    JSON.stringify({ [`<${SECRET}>`]: { client_id: "a", tenant_id: "t" } }),
    JSON.stringify({ [SECRET]: { client_id: "a" } }),
    JSON.stringify({ [SECRET]: { client_id: "a", tenant_id: "t", upstream: SECRET } }),
  ];
  for (const value of bad) {
    const message = refusal(() =>
      readClientKeys(envOf(value === undefined ? {} : { MCPCAST_CLIENT_KEYS: value }))
    );
    assert.ok(message.includes("MCPCAST_CLIENT_KEYS"), message);
    assert.ok(!message.includes(SECRET), message);
  }
});

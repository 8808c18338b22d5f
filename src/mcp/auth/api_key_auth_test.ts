import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { ApiKeyAuth } from "./api_key_auth.ts";

async function refusal(promise: Promise<unknown>, message: string): Promise<void> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  assert.equal(error.code, "AUTHENTICATION_ERROR");
  assert.equal(error.message, message);
}

const KEYS = {
  "sk-simple": "bot",
  "sk-rich": { client_id: "ops", roles: ["admin", "reader"], tenant_id: "acme" },
  "sk-no-tenant": { client_id: "cron", tenant_id: "" },
};

Deno.test("api key auth maps a simple key to its client id with no roles, tenant or claims", async () => {
  const auth = new ApiKeyAuth({ keys: KEYS });
  assert.deepEqual(await auth.authenticate({ "x-api-key": "sk-simple" }), { clientId: "bot", roles: [] });
  assert.equal(auth.header, "x-api-key");
});

Deno.test("api key auth maps a rich key to client id, roles and tenant", async () => {
  const auth = new ApiKeyAuth({ keys: KEYS });
  const identity = await auth.authenticate({ "x-api-key": "sk-rich" });
  assert.deepEqual(identity, { clientId: "ops", roles: ["admin", "reader"], tenantId: "acme" });
  identity.roles?.push("root");
  assert.deepEqual((await auth.authenticate({ "x-api-key": "sk-rich" })).roles, ["admin", "reader"]);
});

Deno.test("api key auth sets a tenant only from a non-empty string", async () => {
  const auth = new ApiKeyAuth({ keys: KEYS });
  const identity = await auth.authenticate({ "x-api-key": "sk-no-tenant" });
  assert.equal(identity.tenantId, undefined);
  assert.ok(!("tenantId" in identity));
});

Deno.test("api key auth refuses a missing key and an unknown key", async () => {
  const auth = new ApiKeyAuth({ keys: KEYS });
  await refusal(auth.authenticate({}), "Missing API key");
  await refusal(auth.authenticate({ "x-api-key": "  " }), "Missing API key");
  await refusal(auth.authenticate({ authorization: "sk-simple" }), "Missing API key");
  await refusal(auth.authenticate({ "x-api-key": "sk-unknown" }), "Invalid API key");
});

Deno.test("api key auth compares whole keys: prefixes, extensions and client ids are refused", async () => {
  const keys: Record<string, string> = {};
  for (let i = 0; i < 20; i++) keys[`sk-key-${i}`.padEnd(12 + i, "x")] = `client-${i}`;
  const auth = new ApiKeyAuth({ keys });
  const all = Object.keys(keys);
  for (const [index, key] of [[0, all[0]], [10, all[10]], [19, all[19]]] as const) {
    assert.equal((await auth.authenticate({ "x-api-key": key })).clientId, `client-${index}`);
  }
  for (const wrong of [all[5].slice(0, -1), `${all[5]}x`, all[5].toUpperCase(), "client-5", "sk-key-"]) {
    await refusal(auth.authenticate({ "x-api-key": wrong }), "Invalid API key");
  }
});

Deno.test("api key auth reads a custom header and message text never echoes the key", async () => {
  const auth = new ApiKeyAuth({ keys: KEYS, header: "X-Service-Key" });
  assert.equal(auth.header, "x-service-key");
  assert.equal((await auth.authenticate({ "x-service-key": "sk-simple" })).clientId, "bot");
  const error = await auth.authenticate({ "x-service-key": "sk-secret-guess" }).catch((e: unknown) => e);
  assert.ok(error instanceof ToolError);
  assert.ok(!JSON.stringify(error.toPayload()).includes("sk-secret-guess"));
});

Deno.test("api key auth verifyToken answers whether a key is configured", async () => {
  const auth = new ApiKeyAuth({ keys: KEYS });
  assert.equal(await auth.verifyToken("sk-rich"), true);
  assert.equal(await auth.verifyToken("sk-ric"), false);
  assert.equal(await auth.verifyToken(""), false);
});

Deno.test("api key auth refuses malformed configuration", () => {
  assert.throws(() => new ApiKeyAuth({ keys: { "": "bot" } }), TypeError);
  assert.throws(() => new ApiKeyAuth({ keys: { k: "" } }), TypeError);
  assert.throws(() => new ApiKeyAuth({ keys: { k: { client_id: "" } } }), TypeError);
  assert.throws(
    () => new ApiKeyAuth({ keys: { k: { client_id: "a", roles: "admin" as never } } }),
    TypeError,
  );
  assert.throws(() => new ApiKeyAuth({ keys: { k: { client_id: "a", tenant_id: 7 as never } } }), TypeError);
  assert.throws(
    () => new ApiKeyAuth({ keys: { k: { client_id: "a", role: ["x"] } as never } }),
    /unknown option "role"/,
  );
  assert.throws(() => new ApiKeyAuth({ keys: { k: "a" }, headers: "x" } as never), /unknown option/);
  assert.throws(() => new ApiKeyAuth({ keys: [] as never }), TypeError);
});

Deno.test("api key auth tells a recently verified key from keys one character off, and keeps answering past its recent keys", async () => {
  const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`sk-key-${i}`, `client-${i}`]));
  const auth = new ApiKeyAuth({ keys: { ...many, "sk-simple": "bot" } });
  assert.equal((await auth.authenticate({ "x-api-key": "sk-simple" })).clientId, "bot");
  await refusal(auth.authenticate({ "x-api-key": "sk-simplf" }), "Invalid API key");
  await refusal(auth.authenticate({ "x-api-key": "sk-simpl" }), "Invalid API key");
  await refusal(auth.authenticate({ "x-api-key": "sk-simple!" }), "Invalid API key");
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 12; i++) {
      assert.equal((await auth.authenticate({ "x-api-key": `sk-key-${i}` })).clientId, `client-${i}`);
    }
  }
  assert.equal((await auth.authenticate({ "x-api-key": " sk-simple " })).clientId, "bot");
  assert.equal(await auth.verifyToken("sk-simplf"), false);
});

import assert from "node:assert/strict";
import { ApiKeyAuth } from "./auth/api_key_auth.ts";
import { authMiddleware } from "./auth/auth_middleware.ts";
import { HasRole } from "./guards.ts";
import { createTestClient } from "./testing.ts";
import { createToolServer } from "./tool_server.ts";
import type { Guard } from "./types.ts";

const keys = new ApiKeyAuth({
  keys: { "k-admin": { client_id: "ada", roles: ["admin"] }, "k-user": "bob" },
});

function build(hide: boolean) {
  const server = createToolServer({ hideUnauthorizedTools: hide }).use(authMiddleware(keys));
  const exploding: Guard = {
    check() {
      throw new Error("guard crashed");
    },
  };
  server.tool("public", {}, () => "p");
  server.tool("members", { auth: true }, () => "m");
  server.tool("admin", { roles: ["admin"] }, () => "a");
  server.tool("broken", { guards: [exploding] }, () => "b");
  server.resource("docs://admin", { roles: ["admin"] }, () => "secret");
  server.prompt("admin_prompt", { guards: [new HasRole("admin")], auth: true }, () => "x");
  return server;
}

Deno.test("hideUnauthorizedTools lists only what each caller may use, failing closed", async () => {
  const server = build(true);
  await using anonymous = await createTestClient(server);
  await using user = await createTestClient(server, { headers: { "x-api-key": "k-user" } });
  await using admin = await createTestClient(server, { headers: { "x-api-key": "k-admin" } });
  const names = async (client: typeof user) => (await client.listTools()).map((t) => t.name);
  assert.deepEqual(await names(anonymous), ["public"]);
  assert.deepEqual(await names(user), ["public", "members"]);
  assert.deepEqual(await names(admin), ["public", "members", "admin"]);
  assert.deepEqual((await user.listResources()).length, 0);
  assert.deepEqual((await admin.listResources()).map((r) => r.uri), ["docs://admin"]);
  assert.deepEqual((await admin.listPrompts()).map((p) => p.name), ["admin_prompt"]);
  assert.deepEqual(
    (await user.listTools({ headers: { "x-api-key": "k-admin" } })).map((t) => t.name),
    ["public", "members", "admin"],
    "per-call headers override the client's",
  );
});

Deno.test("hiding is not access control: hidden tools still refuse calls through their guards", async () => {
  const server = build(true);
  await using user = await createTestClient(server, { headers: { "x-api-key": "k-user" } });
  const result = await user.callTool("admin");
  assert.equal(result.isError, true);
  const text = result.content[0].type === "text" ? result.content[0].text : "";
  assert.equal(JSON.parse(text).error.code, "ACCESS_DENIED");
  const wrongKey = await user.callTool("members", {}, { headers: { "x-api-key": "wrong" } });
  const anonymous = JSON.parse(wrongKey.content[0].type === "text" ? wrongKey.content[0].text : "");
  assert.equal(anonymous.error.code, "AUTHENTICATION_ERROR");
});

Deno.test("without hideUnauthorizedTools every caller sees every tool", async () => {
  await using anonymous = await createTestClient(build(false));
  assert.equal((await anonymous.listTools()).length, 4);
});

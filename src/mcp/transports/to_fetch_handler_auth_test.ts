import assert from "node:assert/strict";
import { ApiKeyAuth } from "../auth/api_key_auth.ts";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { JwtAuth } from "../auth/jwt_auth.ts";
import { echoServer, INITIALIZE, mcpPost } from "./_test_serve.ts";
import { toFetchHandler } from "./to_fetch_handler.ts";

async function status(response: Response): Promise<[number, string | undefined, string | null]> {
  const body = response.headers.get("content-type") === "application/json"
    ? await response.json()
    : undefined;
  if (body === undefined) await response.body?.cancel();
  return [response.status, body?.error, response.headers.get("www-authenticate")];
}

Deno.test("with requireAuth the HTTP gate answers 401 before the MCP layer and passes valid bearer JWTs", async () => {
  const jwt = new JwtAuth({ secret: "gate-test-secret" });
  const server = echoServer({ requireAuth: true }).use(authMiddleware(jwt));
  const handler = toFetchHandler(server, { enableJsonResponse: true });
  try {
    assert.deepEqual(await status(await handler(mcpPost(INITIALIZE))), [
      401,
      "Authentication required",
      "Bearer",
    ]);
    const forged = await new JwtAuth({ secret: "someone-else" }).createToken({ sub: "x" });
    assert.deepEqual(
      await status(await handler(mcpPost(INITIALIZE, { authorization: `Bearer ${forged}` }))),
      [
        401,
        "Invalid authentication token",
        'Bearer error="invalid_token"',
      ],
    );
    const token = await jwt.createToken({ sub: "agent" });
    const ok = await handler(mcpPost(INITIALIZE, { authorization: `Bearer ${token}` }));
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).result.serverInfo.name, "echo-server");
  } finally {
    await handler.close();
  }
});

Deno.test("the gate accepts the provider's API-key header and refuses unknown keys", async () => {
  const keys = new ApiKeyAuth({ keys: { "sk-live": "ops" } });
  const server = echoServer({ requireAuth: true }).use(authMiddleware(keys));
  const handler = toFetchHandler(server, { enableJsonResponse: true });
  try {
    assert.deepEqual(await status(await handler(mcpPost(INITIALIZE, { "x-api-key": "sk-wrong" }))), [
      401,
      "Invalid API key",
      "Bearer",
    ]);
    const ok = await handler(mcpPost(INITIALIZE, { "x-api-key": "sk-live" }));
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    const health = await handler(new Request("http://127.0.0.1/health"));
    assert.equal(health.status, 200, "health skips the gate");
    await health.body?.cancel();
  } finally {
    await handler.close();
  }
});

Deno.test("without requireAuth there is no HTTP gate (tools still authenticate per call)", async () => {
  const server = echoServer().use(authMiddleware(new ApiKeyAuth({ keys: { k: "c" } })));
  const handler = toFetchHandler(server, { enableJsonResponse: true });
  try {
    const response = await handler(mcpPost(INITIALIZE));
    assert.equal(response.status, 200);
    await response.body?.cancel();
  } finally {
    await handler.close();
  }
});

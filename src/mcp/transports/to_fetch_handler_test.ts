import assert from "node:assert/strict";
import { authMiddleware } from "../auth/auth_middleware.ts";
import { JwtAuth } from "../auth/jwt_auth.ts";
import { echoServer, INITIALIZE, mcpPost, openSession, rawHttp, serveOnLoopback } from "./_test_serve.ts";
import { toFetchHandler } from "./to_fetch_handler.ts";
import { HealthCheck } from "./health_check.ts";

const INIT_BODY = JSON.stringify(INITIALIZE);

Deno.test("a request whose Host is not loopback or allowed gets 421 over a real socket", async () => {
  const handler = toFetchHandler(echoServer(), { allowedHosts: ["mcp.example.com"] });
  await using served = await serveOnLoopback(handler);
  const send = (host: string) =>
    rawHttp(served.port, [
      "POST /mcp HTTP/1.1",
      `Host: ${host}`,
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
    ], INIT_BODY);
  const evil = await send("evil.example.com");
  assert.equal(evil.status, 421);
  assert.deepEqual(JSON.parse(evil.body), { error: "misdirected request", message: "Host not allowed" });
  assert.equal((await send(`localhost:${served.port}`)).status, 200);
  assert.equal((await send("MCP.Example.com:443")).status, 200);
  assert.equal(handler.sessionCount, 2);
});

Deno.test("an Origin of a foreign site gets 403; loopback, allowed or absent origins pass", async () => {
  const handler = toFetchHandler(echoServer(), {
    allowedOrigins: ["https://app.example.com"],
    enableJsonResponse: true,
  });
  try {
    const evil = await handler(mcpPost(INITIALIZE, { origin: "http://evil.example.com" }));
    assert.equal(evil.status, 403);
    assert.equal((await evil.json()).error, "forbidden");
    for (const origin of ["http://localhost:5173", "https://app.example.com", undefined]) {
      const response = await handler(mcpPost(INITIALIZE, origin ? { origin } : {}));
      assert.equal(response.status, 200, String(origin));
      assert.equal((await response.json()).result.serverInfo.name, "echo-server");
    }
  } finally {
    await handler.close();
  }
});

Deno.test("health routes answer without Host checks; readiness is 503 without error text", async () => {
  const health = new HealthCheck()
    .addCheck("db", () => {
      throw new Error("password authentication failed for user admin");
    })
    .addCheck("cache", () => true);
  const handler = toFetchHandler(echoServer(), { health });
  const live = await handler(new Request("http://evil.example.com/health"));
  assert.equal(live.status, 200);
  assert.equal((await live.json()).status, "alive");
  const ready = await handler(new Request("http://evil.example.com/health/ready"));
  assert.equal(ready.status, 503);
  assert.equal(ready.headers.get("cache-control"), "no-store");
  const text = await ready.text();
  assert.deepEqual(JSON.parse(text), {
    status: "not_ready",
    checks: { db: { healthy: false }, cache: { healthy: true } },
  });
  assert.doesNotMatch(text, /password/);
  const plain = toFetchHandler(echoServer());
  const empty = await plain(new Request("http://localhost/health/ready"));
  assert.equal(empty.status, 200);
  assert.deepEqual(await empty.json(), { status: "ready", checks: {} });
});

Deno.test("unknown paths get 404 and other methods on /mcp get 405", async () => {
  const handler = toFetchHandler(echoServer());
  const missing = await handler(new Request("http://localhost/nothing"));
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
  const put = await handler(new Request("http://localhost/mcp", { method: "PUT" }));
  assert.equal(put.status, 405);
  assert.equal(put.headers.get("allow"), "GET, POST, DELETE");
  await put.body?.cancel();
  const notInit = await handler(mcpPost({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
  assert.equal(notInit.status, 400);
  await notInit.body?.cancel();
});

Deno.test("the token endpoint is served at its path, outside the auth gate", async () => {
  const auth = new JwtAuth({ secret: "fetch-handler-test-secret" });
  const server = echoServer({ requireAuth: true }).use(authMiddleware(auth));
  const handler = toFetchHandler(server, {
    tokenEndpoint: { auth, clients: { bot: { secret: "pw" } }, path: "/oauth/token" },
    enableJsonResponse: true,
  });
  try {
    const issued = await handler(
      new Request("http://localhost/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_id: "bot", client_secret: "pw" }),
      }),
    );
    assert.equal(issued.status, 200);
    const { access_token: token } = await issued.json();
    const id = await openSession(handler, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(typeof id, "string");
  } finally {
    await handler.close();
  }
});

Deno.test("CORS preflights are answered without credentials and 401s carry CORS headers", async () => {
  const server = echoServer({ requireAuth: true }).use(
    authMiddleware(new JwtAuth({ secret: "cors-test-secret" })),
  );
  const handler = toFetchHandler(server, { cors: { allowOrigins: ["https://app.example.com"] } });
  const preflight = await handler(
    new Request("http://localhost/mcp", {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
    }),
  );
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get("access-control-allow-origin"), "https://app.example.com");
  assert.match(preflight.headers.get("access-control-allow-headers")!, /mcp-session-id/);
  assert.equal(preflight.headers.get("access-control-max-age"), "600");
  const refused = await handler(mcpPost(INITIALIZE, { origin: "https://app.example.com" }));
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("access-control-allow-origin"), "https://app.example.com");
  assert.equal(refused.headers.get("access-control-expose-headers"), "mcp-session-id");
  assert.equal((await refused.json()).error, "Authentication required");
  const stranger = await handler(
    new Request("http://localhost/mcp", {
      method: "OPTIONS",
      headers: { origin: "https://other.example.com", "access-control-request-method": "POST" },
    }),
  );
  assert.equal(stranger.status, 403);
  assert.equal(stranger.headers.get("access-control-allow-origin"), null);
  await stranger.body?.cancel();
});

Deno.test("toFetchHandler refuses stdio, unknown options and wildcard CORS with credentials", () => {
  const server = echoServer();
  assert.throws(() => toFetchHandler(server, { transport: "stdio" as never }), {
    name: "TypeError",
    message: "stdio cannot be served over HTTP",
  });
  assert.throws(() => toFetchHandler(server, { allowHost: [] } as never), /unknown option 'allowHost'/);
  assert.throws(
    () => toFetchHandler(server, { cors: { allowOrigins: ["*"], allowCredentials: true } }),
    TypeError,
  );
  assert.throws(
    () => toFetchHandler(server, { allowedOrigins: ["evil.example.com"] }),
    /not an http\(s\) origin/,
  );
  assert.throws(() => toFetchHandler(server, { maxSessions: 0 }), /maxSessions/);
});

Deno.test("toFetchHandler runs the server's readiness assertion", () => {
  const server = echoServer().tool(
    "wire",
    { description: "Move money", requiresApproval: true },
    () => "sent",
  );
  assert.throws(() => toFetchHandler(server), /requires approval/);
});

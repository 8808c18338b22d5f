import assert from "node:assert/strict";
import { Logger, memorySink } from "../../log.ts";
import { ToolError } from "../errors.ts";
import { RequestContext } from "../request_context.ts";
import type { AuthProvider, Identity, Middleware } from "../types.ts";
import { DEAD_SESSION, testContext, testTool } from "../_test_context.ts";
import { ApiKeyAuth } from "./api_key_auth.ts";
import { authMiddleware, isAuthMiddleware } from "./auth_middleware.ts";
import { JwtAuth } from "./jwt_auth.ts";

const SECRET = "middleware-test-secret";

function fixed(identity: Identity): AuthProvider {
  return { header: "authorization", authenticate: () => Promise.resolve(identity) };
}

function authCtx(meta: Record<string, string> = {}, ipAddress?: string): RequestContext {
  return new RequestContext({
    serverName: "test",
    definition: testTool({ name: "secure", auth: true }),
    requestType: "tool",
    requestId: "req-1",
    meta,
    arguments: {},
    session: DEAD_SESSION,
    signal: new AbortController().signal,
    logger: new Logger("test", { sink: memorySink() }),
    ipAddress,
  });
}

Deno.test("auth middleware passes calls to tools without auth through untouched", async () => {
  const provider: AuthProvider = {
    header: "x",
    authenticate: () => Promise.reject(new Error("must not run")),
  };
  const { ctx } = testContext({ meta: { "x-api-key": "sk" } });
  const result = await authMiddleware(provider)(ctx, () => Promise.resolve("handled"));
  assert.equal(result, "handled");
  assert.equal(ctx.client, undefined);
  assert.equal(ctx.clientId, undefined);
  assert.deepEqual(ctx.state, {});
});

Deno.test("auth middleware sets the API-key caller on the context before the chain runs", async () => {
  const provider = new ApiKeyAuth({
    keys: { "sk-1": { client_id: "ops", roles: ["admin"], tenant_id: "acme" } },
  });
  const ctx = authCtx({ "x-api-key": "sk-1", "user-agent": "agent/1.0" }, "127.0.0.9");
  let seenInNext: string | undefined;
  const result = await authMiddleware(provider)(ctx, () => {
    seenInNext = ctx.client?.clientId;
    return Promise.resolve(42);
  });
  assert.equal(result, 42);
  assert.equal(seenInNext, "ops");
  assert.equal(ctx.clientId, "ops");
  assert.equal(ctx.tenantId, "acme");
  assert.deepEqual([...ctx.client?.roles ?? []], ["admin"]);
  assert.deepEqual(ctx.state.roles, ["admin"]);
  assert.deepEqual(ctx.client?.claims, {});
  assert.equal(ctx.client?.scopes.size, 0);
  assert.equal(ctx.client?.ipAddress, "127.0.0.9");
  assert.equal(ctx.client?.userAgent, "agent/1.0");
});

Deno.test("auth middleware maps JWT claims onto the client", async () => {
  const provider = new JwtAuth({ secret: SECRET, audience: "api", issuer: "idp" });
  const token = await provider.createToken({
    sub: "svc",
    roles: ["reader"],
    scope: "orders:read  orders:write",
    tenant_id: "globex",
  });
  const ctx = authCtx({ authorization: `Bearer ${token}` });
  await authMiddleware(provider)(ctx, () => Promise.resolve());
  const client = ctx.client;
  assert.ok(client);
  assert.equal(client.clientId, "svc");
  assert.equal(client.subject, "svc");
  assert.equal(client.issuer, "idp");
  assert.equal(client.audience, "api");
  assert.equal(client.tenantId, "globex");
  assert.deepEqual([...client.scopes], ["orders:read", "orders:write"]);
  assert.deepEqual([...client.roles], ["reader"]);
  assert.equal(typeof client.issuedAt, "number");
  assert.equal(client.expiresAt, (client.issuedAt ?? 0) + 3600);
  assert.equal(client.claims.tenant_id, "globex");
});

Deno.test("auth middleware reads scopes from a list and unions claim and provider roles", async () => {
  const provider = fixed({
    clientId: "c",
    roles: ["ops", "admin"],
    claims: { roles: ["admin", 7, "viewer"], scope: ["a", 1, "b"], aud: ["x", "y"] },
  });
  const client = await authMiddleware(provider).identify({});
  assert.deepEqual([...client.roles].sort(), ["admin", "ops", "viewer"]);
  assert.deepEqual([...client.scopes], ["a", "b"]);
  assert.deepEqual(client.audience, ["x", "y"]);
  const noScope = await authMiddleware(fixed({ clientId: "c", claims: { roles: "admin", scope: 5 } }))
    .identify({});
  assert.equal(noScope.scopes.size, 0);
  assert.equal(noScope.roles.size, 0, "a roles claim that is not a list grants nothing");
});

Deno.test("auth middleware takes the tenant from the tenant claim, else from the provider", async () => {
  const both = fixed({
    clientId: "c",
    tenantId: "from-key",
    claims: { tenant_id: "from-claim", org: "o-1" },
  });
  assert.equal((await authMiddleware(both).identify({})).tenantId, "from-claim");
  assert.equal((await authMiddleware(both, { tenantClaim: "org" }).identify({})).tenantId, "o-1");
  const odd = fixed({ clientId: "c", tenantId: "from-key", claims: { tenant_id: 5 } });
  assert.equal((await authMiddleware(odd).identify({})).tenantId, "from-key");
  const none = fixed({ clientId: "c", tenantId: "", claims: { tenant_id: "" } });
  assert.equal((await authMiddleware(none).identify({})).tenantId, undefined);
});

Deno.test("auth middleware awaits onAuthenticate before the rest of the chain", async () => {
  const order: string[] = [];
  const middleware = authMiddleware(fixed({ clientId: "c" }), {
    onAuthenticate: async (client, ctx) => {
      await Promise.resolve();
      assert.equal(ctx.client, client);
      client.extra.plan = "gold";
      order.push("hook");
    },
  });
  const ctx = authCtx();
  await middleware(ctx, () => {
    order.push("next");
    return Promise.resolve();
  });
  assert.deepEqual(order, ["hook", "next"]);
  assert.equal(ctx.client?.extra.plan, "gold");
  const refusing = authMiddleware(fixed({ clientId: "c" }), {
    onAuthenticate: () => {
      throw new ToolError("ACCESS_DENIED", "suspended");
    },
  });
  let ran = false;
  await assert.rejects(refusing(authCtx(), () => Promise.resolve(ran = true)), /suspended/);
  assert.equal(ran, false);
});

Deno.test("auth middleware refuses before the chain when authentication fails", async () => {
  const middleware = authMiddleware(new ApiKeyAuth({ keys: { "sk-1": "ops" } }));
  const ctx = authCtx({ "x-api-key": "wrong" });
  let ran = false;
  const error = await middleware(ctx, () => Promise.resolve(ran = true)).catch((e: unknown) => e);
  assert.ok(error instanceof ToolError && error.code === "AUTHENTICATION_ERROR");
  assert.equal(ran, false);
  assert.equal(ctx.client, undefined);
  const blank = authMiddleware(fixed({ clientId: "" }));
  await assert.rejects(
    blank.identify({}),
    (e: unknown) => e instanceof ToolError && e.code === "AUTHENTICATION_ERROR",
  );
});

Deno.test("auth middleware identifies each request from its own headers", async () => {
  const middleware = authMiddleware(new ApiKeyAuth({ keys: { "sk-a": "alice", "sk-b": "bob" } }));
  const first = authCtx({ "x-api-key": "sk-a" });
  const second = authCtx({ "x-api-key": "sk-b" });
  await middleware(first, () => Promise.resolve());
  await middleware(second, () => Promise.resolve());
  assert.equal(first.clientId, "alice");
  assert.equal(second.clientId, "bob");
  await assert.rejects(middleware(authCtx({}), () => Promise.resolve()), /Missing API key/);
});

Deno.test("auth middleware identify works without a context and keeps the IP it is given", async () => {
  const provider = new ApiKeyAuth({ keys: { "sk-1": "ops" } });
  const middleware = authMiddleware(provider);
  const client = await middleware.identify({ "x-api-key": "sk-1", "user-agent": "ua" }, {
    ipAddress: "127.0.0.1",
  });
  assert.equal(client.clientId, "ops");
  assert.equal(client.ipAddress, "127.0.0.1");
  assert.equal(client.userAgent, "ua");
  assert.equal(middleware.provider, provider);
});

Deno.test("isAuthMiddleware recognises only auth middleware", () => {
  const plain: Middleware = (_ctx, next) => next();
  assert.equal(isAuthMiddleware(authMiddleware(fixed({ clientId: "c" }))), true);
  assert.equal(isAuthMiddleware(plain), false);
  assert.equal(
    isAuthMiddleware(Object.assign((() => Promise.resolve()) as Middleware, { provider: {} })),
    false,
  );
});

Deno.test("auth middleware refuses bad options", () => {
  const provider = fixed({ clientId: "c" });
  assert.throws(() => authMiddleware(provider, { tenantClaim: "" }), TypeError);
  assert.throws(() => authMiddleware(provider, { onAuth: () => {} } as never), /unknown option/);
  assert.throws(() => authMiddleware(provider, { onAuthenticate: "x" as never }), TypeError);
  assert.throws(() => authMiddleware({} as AuthProvider), TypeError);
});

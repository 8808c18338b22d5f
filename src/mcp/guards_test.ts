import assert from "node:assert/strict";
import { ClientContext } from "./client_context.ts";
import type { ClientContextInit } from "./client_context.ts";
import { ToolError } from "./errors.ts";
import {
  HasAllRoles,
  HasAllScopes,
  HasRole,
  HasScope,
  HasTenant,
  RequireAuth,
  RequireClientId,
  RequireTenant,
  runGuards,
} from "./guards.ts";
import type { RequestContext } from "./request_context.ts";
import { testContext, testTool } from "./_test_context.ts";
import type { Guard } from "./types.ts";

function ctxFor(init?: Partial<ClientContextInit>): RequestContext {
  const { ctx } = testContext({ tool: testTool({ name: "delete_order" }) });
  if (init !== undefined) {
    ctx.client = new ClientContext({ clientId: "alice", ...init });
    ctx.clientId = ctx.client.clientId;
  }
  return ctx;
}

const JWT_CLAIMS = { sub: "alice", scope: "orders:read" };

async function denied(ctx: RequestContext, guard: Guard): Promise<ToolError> {
  const error = await runGuards(ctx, [guard]).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof ToolError, "expected a denial");
  assert.equal(error.code, "ACCESS_DENIED");
  return error;
}

Deno.test("RequireAuth allows a caller with a client id and denies anonymous calls", async () => {
  const guard = new RequireAuth();
  assert.equal(guard.name, "RequireAuth");
  assert.equal(guard.check(ctxFor({})), true);
  const anonymous = ctxFor();
  assert.equal(guard.check(anonymous), false);
  anonymous.clientId = "legacy";
  assert.equal(guard.check(anonymous), true);
  assert.equal((await denied(ctxFor(), guard)).message, "Authentication required");
});

Deno.test("HasRole allows any listed role and names required and held roles on denial", async () => {
  const guard = new HasRole("admin", "ops");
  assert.equal(guard.check(ctxFor({ roles: ["ops"] })), true);
  assert.equal(guard.check(ctxFor({ roles: ["viewer"] })), false);
  const error = await denied(ctxFor({ roles: ["viewer", "auditor"] }), guard);
  assert.equal(error.message, "Requires any of roles [admin, ops], but client has [auditor, viewer]");
  assert.equal(
    (await denied(ctxFor({}), guard)).message,
    "Requires any of roles [admin, ops], but client has (none)",
  );
});

Deno.test("role guards fall back to state.roles when no client is set", () => {
  const ctx = ctxFor();
  ctx.state.roles = ["admin", 3];
  assert.equal(new HasRole("admin").check(ctx), true);
  assert.equal(new HasAllRoles("admin", "ops").check(ctx), false);
  ctx.client = new ClientContext({ clientId: "bob", roles: [] });
  assert.equal(new HasRole("admin").check(ctx), false, "a client's roles win over state");
});

Deno.test("HasAllRoles needs every role and lists required, held and missing", async () => {
  const guard = new HasAllRoles("admin", "ops", "billing");
  assert.equal(guard.check(ctxFor({ roles: ["ops", "admin", "billing", "x"] })), true);
  const error = await denied(ctxFor({ roles: ["ops"] }), guard);
  assert.equal(
    error.message,
    "Requires all of roles [admin, ops, billing], but client has [ops]; missing [admin, billing]",
  );
});

Deno.test("HasScope allows any listed scope from a token", async () => {
  const guard = new HasScope("orders:write", "orders:admin");
  assert.equal(guard.check(ctxFor({ claims: JWT_CLAIMS, scopes: ["orders:admin"] })), true);
  const error = await denied(ctxFor({ claims: JWT_CLAIMS, scopes: ["orders:read"] }), guard);
  assert.equal(
    error.message,
    "Requires any of scopes [orders:write, orders:admin], but client has [orders:read]",
  );
});

Deno.test("HasAllScopes needs every scope and lists the missing ones", async () => {
  const guard = new HasAllScopes("a", "b");
  assert.equal(guard.check(ctxFor({ claims: JWT_CLAIMS, scopes: ["b", "a"] })), true);
  const error = await denied(ctxFor({ claims: JWT_CLAIMS, scopes: ["a"] }), guard);
  assert.equal(error.message, "Requires all of scopes [a, b], but client has [a]; missing [b]");
});

Deno.test("scope guards always deny callers authenticated without claims (API keys)", async () => {
  const apiKeyCaller = ctxFor({ scopes: ["a", "b"] });
  assert.equal(new HasScope("a").check(apiKeyCaller), false);
  assert.equal(new HasAllScopes("a").check(apiKeyCaller), false);
  assert.equal(new HasScope("a").check(ctxFor()), false);
  assert.equal(
    (await denied(apiKeyCaller, new HasScope("a"))).message,
    "Requires any of scopes [a], but client has (none)",
  );
});

Deno.test("RequireClientId allows listed ids and its denial names only the caller", async () => {
  const guard = new RequireClientId("svc-billing", "svc-admin");
  assert.equal(guard.check(ctxFor({ clientId: "svc-admin" })), true);
  const error = await denied(ctxFor({ clientId: "mallory" }), guard);
  assert.equal(error.message, "Client 'mallory' is not allowed to access 'delete_order'");
  assert.ok(!error.message.includes("svc-"));
  assert.equal((await denied(ctxFor(), guard)).message, "Authentication required");
});

Deno.test("RequireTenant allows any tenant and denies callers without one", async () => {
  const guard = new RequireTenant();
  assert.equal(guard.check(ctxFor({ tenantId: "acme" })), true);
  assert.equal(guard.check(ctxFor({ tenantId: "" })), false);
  assert.equal((await denied(ctxFor({}), guard)).message, "Requires a tenant, but client has none");
});

Deno.test("HasTenant allows listed tenants and its denial names only the caller's tenant", async () => {
  const guard = new HasTenant("acme", "globex");
  assert.equal(guard.check(ctxFor({ tenantId: "globex" })), true);
  const error = await denied(ctxFor({ tenantId: "initech" }), guard);
  assert.equal(error.message, "Tenant 'initech' is not allowed to access 'delete_order'");
  assert.ok(!error.message.includes("acme"));
  assert.equal((await denied(ctxFor({}), guard)).message, "Requires a tenant, but client has none");
});

Deno.test("guards refuse an empty list of names", () => {
  assert.throws(() => new HasRole(), TypeError);
  assert.throws(() => new HasAllScopes(""), TypeError);
  assert.throws(() => new RequireClientId(), TypeError);
  assert.throws(() => new HasTenant(), TypeError);
});

Deno.test("runGuards stops at the first denial and reports guard and tool", async () => {
  const seen: string[] = [];
  const spy = (name: string, result: boolean): Guard => ({
    name,
    check: () => {
      seen.push(name);
      return result;
    },
  });
  const ctx = ctxFor({ roles: ["viewer"] });
  await runGuards(ctx, [spy("first", true), new HasRole("viewer")]);
  const error = await runGuards(ctx, [spy("a", true), spy("b", false), spy("c", true)]).catch((e) => e);
  assert.ok(error instanceof ToolError);
  assert.deepEqual(error.details, { guard: "b", tool: "delete_order" });
  assert.equal(error.message, "Access denied by b");
  assert.deepEqual(seen, ["first", "a", "b"]);
  const classDenial = await denied(ctx, new HasAllRoles("admin"));
  assert.deepEqual(classDenial.details, { guard: "HasAllRoles", tool: "delete_order" });
});

Deno.test("runGuards names unnamed guards by class and awaits async checks", async () => {
  class OfficeHours implements Guard {
    check() {
      return Promise.resolve(false);
    }
  }
  const error = await denied(ctxFor({}), new OfficeHours());
  assert.deepEqual(error.details, { guard: "OfficeHours", tool: "delete_order" });
  await runGuards(ctxFor({}), [{ check: () => Promise.resolve(true) }]);
});

Deno.test("runGuards denies when a guard throws, and lets a guard's ToolError through", async () => {
  const broken: Guard = {
    name: "Broken",
    check: () => {
      throw new Error("db password=hunter2 unreachable");
    },
  };
  const error = await denied(ctxFor({}), broken);
  assert.equal(error.message, "Access denied by Broken");
  assert.ok(!JSON.stringify(error.toPayload()).includes("hunter2"));
  const custom = new ToolError("RATE_LIMIT_EXCEEDED", "slow down", { retryable: true });
  const thrower: Guard = { check: () => Promise.reject(custom) };
  assert.equal(await runGuards(ctxFor({}), [thrower]).catch((e) => e), custom);
  const truthy: Guard = { check: () => "yes" as unknown as boolean };
  assert.equal((await denied(ctxFor({}), truthy)).code, "ACCESS_DENIED");
  const badText: Guard = {
    name: "BadText",
    check: () => false,
    describeDenial: () => {
      throw new Error("boom");
    },
  };
  assert.equal((await denied(ctxFor({}), badText)).message, "Access denied by BadText");
});

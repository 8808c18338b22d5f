/**
 * Built-in guards (checks run just before the handler) and {@linkcode runGuards}, which evaluates a
 * definition's guards in order and refuses with `ACCESS_DENIED`.
 *
 * @module
 */

import { ToolError } from "./errors.ts";
import type { RequestContext } from "./request_context.ts";
import type { Guard } from "./types.ts";

function names(values: readonly string[], what: string): readonly string[] {
  if (values.length === 0 || !values.every((value) => typeof value === "string" && value !== "")) {
    throw new TypeError(`${what} needs at least one non-empty string`);
  }
  return Object.freeze([...values]);
}

function shown(values: Iterable<string>, sort = true): string {
  const items = [...values];
  if (sort) items.sort();
  return items.length === 0 ? "(none)" : `[${items.join(", ")}]`;
}

/** The caller's roles: `ctx.client.roles`, else `ctx.state.roles` (a string list). */
function rolesOf(ctx: RequestContext): ReadonlySet<string> {
  if (ctx.client !== undefined) return ctx.client.roles;
  const roles = ctx.state.roles;
  return new Set(
    Array.isArray(roles) ? roles.filter((role): role is string => typeof role === "string") : [],
  );
}

/** The caller's scopes; none for callers without claims (API keys) or without a client. */
function scopesOf(ctx: RequestContext): ReadonlySet<string> {
  const client = ctx.client;
  if (client === undefined || Object.keys(client.claims).length === 0) return new Set();
  return client.scopes;
}

function callerId(ctx: RequestContext): string | undefined {
  const id = ctx.client?.clientId ?? ctx.clientId;
  return typeof id === "string" && id !== "" ? id : undefined;
}

function missing(required: readonly string[], held: ReadonlySet<string>): string[] {
  return required.filter((value) => !held.has(value));
}

/** Allows any authenticated caller (one with a client id). */
export class RequireAuth implements Guard {
  /** Guard name for `details.guard`. */
  readonly name = "RequireAuth";

  /** Whether the caller is authenticated. */
  check(ctx: RequestContext): boolean {
    return callerId(ctx) !== undefined;
  }

  /** The denial text. */
  describeDenial(): string {
    return "Authentication required";
  }
}

/**
 * The role and scope guards: the caller must hold `any` or `all` of `values` among its roles or its
 * scopes. The four public classes below name each combination.
 *
 * @internal
 */
class SetGuard implements Guard {
  /** Guard name for `details.guard`. */
  readonly name: string;
  #kind: "roles" | "scopes";
  #mode: "any" | "all";
  #values: readonly string[];

  /** A guard named `name` needing `mode` of `values` (checked by the subclass) among the caller's `kind`. */
  constructor(
    name: string,
    set: { kind: "roles" | "scopes"; mode: "any" | "all"; values: readonly string[] },
  ) {
    this.name = name;
    this.#kind = set.kind;
    this.#mode = set.mode;
    this.#values = set.values;
  }

  #held(ctx: RequestContext): ReadonlySet<string> {
    return this.#kind === "roles" ? rolesOf(ctx) : scopesOf(ctx);
  }

  /** Whether the caller holds any (or all) of the values. */
  check(ctx: RequestContext): boolean {
    const held = this.#held(ctx);
    return this.#mode === "any"
      ? this.#values.some((value) => held.has(value))
      : missing(this.#values, held).length === 0;
  }

  /** "Requires any of roles [..], but client has [..]"; for `all`, also the missing ones. */
  describeDenial(ctx: RequestContext): string {
    const held = this.#held(ctx);
    const required = `${this.#mode} of ${this.#kind} ${shown(this.#values, false)}`;
    const text = `Requires ${required}, but client has ${shown(held)}`;
    return this.#mode === "any" ? text : `${text}; missing ${shown(missing(this.#values, held), false)}`;
  }
}

/** Allows callers holding at least one of the roles. */
export class HasRole extends SetGuard {
  /** Roles, any of which suffices. */
  readonly roles: readonly string[];

  /** A guard for `roles` (at least one). */
  constructor(...roles: string[]) {
    const values = names(roles, "HasRole");
    super("HasRole", { kind: "roles", mode: "any", values });
    this.roles = values;
  }
}

/** Allows callers holding every one of the roles. */
export class HasAllRoles extends SetGuard {
  /** Roles, all of which are needed. */
  readonly roles: readonly string[];

  /** A guard for `roles` (at least one). */
  constructor(...roles: string[]) {
    const values = names(roles, "HasAllRoles");
    super("HasAllRoles", { kind: "roles", mode: "all", values });
    this.roles = values;
  }
}

/** Allows callers granted at least one of the scopes (JWT `scope` claim; API-key callers never pass). */
export class HasScope extends SetGuard {
  /** Scopes, any of which suffices. */
  readonly scopes: readonly string[];

  /** A guard for `scopes` (at least one). */
  constructor(...scopes: string[]) {
    const values = names(scopes, "HasScope");
    super("HasScope", { kind: "scopes", mode: "any", values });
    this.scopes = values;
  }
}

/** Allows callers granted every one of the scopes (API-key callers never pass). */
export class HasAllScopes extends SetGuard {
  /** Scopes, all of which are needed. */
  readonly scopes: readonly string[];

  /** A guard for `scopes` (at least one). */
  constructor(...scopes: string[]) {
    const values = names(scopes, "HasAllScopes");
    super("HasAllScopes", { kind: "scopes", mode: "all", values });
    this.scopes = values;
  }
}

/** Allows only the listed client ids; the denial names the caller, never the allowed ids. */
export class RequireClientId implements Guard {
  /** Guard name for `details.guard`. */
  readonly name = "RequireClientId";
  /** Allowed client ids. */
  readonly clientIds: readonly string[];

  /** A guard for `clientIds` (at least one). */
  constructor(...clientIds: string[]) {
    this.clientIds = names(clientIds, "RequireClientId");
  }

  /** Whether the caller's id is allowed. */
  check(ctx: RequestContext): boolean {
    const id = callerId(ctx);
    return id !== undefined && this.clientIds.includes(id);
  }

  /** Names only the caller. */
  describeDenial(ctx: RequestContext): string {
    const id = callerId(ctx);
    return id === undefined
      ? "Authentication required"
      : `Client '${id}' is not allowed to access '${ctx.name}'`;
  }
}

/** Allows callers that carry any tenant. */
export class RequireTenant implements Guard {
  /** Guard name for `details.guard`. */
  readonly name = "RequireTenant";

  /** Whether the caller has a tenant. */
  check(ctx: RequestContext): boolean {
    return typeof ctx.tenantId === "string" && ctx.tenantId !== "";
  }

  /** The denial text. */
  describeDenial(): string {
    return "Requires a tenant, but client has none";
  }
}

/** Allows callers of the listed tenants; the denial names the caller's tenant, never the allowed ones. */
export class HasTenant implements Guard {
  /** Guard name for `details.guard`. */
  readonly name = "HasTenant";
  /** Allowed tenant ids. */
  readonly tenants: readonly string[];

  /** A guard for `tenants` (at least one). */
  constructor(...tenants: string[]) {
    this.tenants = names(tenants, "HasTenant");
  }

  /** Whether the caller's tenant is allowed. */
  check(ctx: RequestContext): boolean {
    const tenant = ctx.tenantId;
    return tenant !== undefined && this.tenants.includes(tenant);
  }

  /** Names only the caller's tenant. */
  describeDenial(ctx: RequestContext): string {
    const tenant = ctx.tenantId;
    return tenant === undefined || tenant === ""
      ? "Requires a tenant, but client has none"
      : `Tenant '${tenant}' is not allowed to access '${ctx.name}'`;
  }
}

function guardName(guard: Guard): string {
  if (typeof guard.name === "string" && guard.name !== "") return guard.name;
  return (guard as { constructor?: { name?: string } }).constructor?.name || "Guard";
}

function denialText(guard: Guard, ctx: RequestContext, name: string): string {
  try {
    const text = guard.describeDenial?.(ctx);
    if (typeof text === "string" && text !== "") return text;
  } catch {
    // A broken description must not turn a denial into something else.
  }
  return `Access denied by ${name}`;
}

/**
 * Evaluates `guards` in order; the first that does not answer `true` refuses the call with
 * `ACCESS_DENIED` and `details: { guard, tool }`. A guard that throws a {@linkcode ToolError}
 * propagates it; any other exception denies (fail closed) and stays server-side as the cause.
 */
export async function runGuards(ctx: RequestContext, guards: readonly Guard[]): Promise<void> {
  for (const guard of guards) {
    let allowed = false;
    let cause: unknown;
    let threw = false;
    try {
      allowed = (await guard.check(ctx)) === true;
    } catch (error) {
      if (error instanceof ToolError) throw error;
      threw = true;
      cause = error;
    }
    if (allowed) continue;
    const name = guardName(guard);
    const message = threw ? `Access denied by ${name}` : denialText(guard, ctx, name);
    throw new ToolError("ACCESS_DENIED", message, { details: { guard: name, tool: ctx.name }, cause });
  }
}

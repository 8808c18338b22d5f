/**
 * The auth middleware: authenticates calls to definitions with `auth: true` through an
 * {@linkcode AuthProvider} and puts the caller on the request context.
 *
 * @module
 */

import { ClientContext } from "../client_context.ts";
import type { ClientContextInit } from "../client_context.ts";
import { ToolError } from "../errors.ts";
import type { RequestContext } from "../request_context.ts";
import type { AuthProvider, Middleware, Next } from "../types.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { AUTHENTICATE_NOW, authWording } from "./_options.ts";
import type { Identity } from "../types.ts";

/** Options for {@linkcode authMiddleware}. */
export interface AuthMiddlewareOptions {
  /** Runs after the caller is set on the context and before the rest of the chain; may fill `client.extra`. */
  onAuthenticate?: (client: ClientContext, ctx: RequestContext) => void | Promise<void>;
  /** Claim naming the caller's tenant (used when it is a non-empty string). @default "tenant_id" */
  tenantClaim?: string;
}

const AUTH_MIDDLEWARE_KEYS = { onAuthenticate: true, tenantClaim: true } satisfies Record<
  keyof AuthMiddlewareOptions,
  true
>;

/** Transport facts {@linkcode AuthMiddleware.identify} may use. */
export interface IdentifyRequest {
  /** Caller IP address. */
  ipAddress?: string;
}

/** An auth middleware, with its provider and a way to identify a caller outside a call. */
export interface AuthMiddleware extends Middleware {
  /** The provider it authenticates with. */
  readonly provider: AuthProvider;
  /**
   * The caller described by `meta` (lower-cased headers), as the middleware would set it; throws the
   * provider's `AUTHENTICATION_ERROR`. Used for hidden-tool listing and the HTTP 401 gate.
   */
  identify(meta: Readonly<Record<string, string>>, request?: IdentifyRequest): Promise<ClientContext>;
}

const CREATED = new WeakSet<Middleware>();

/** The non-empty strings of a list; anything else gives none. */
function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string" && item !== "")
    : [];
}

/** OAuth scopes: a space-separated string or a list of strings. */
function scopeList(value: unknown): string[] {
  return typeof value === "string" ? value.split(/\s+/).filter((item) => item !== "") : stringList(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function audienceOf(value: unknown): string | string[] | undefined {
  if (typeof value === "string") return value;
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? [...value] : undefined;
}

/**
 * A middleware that authenticates calls to definitions with `auth: true` (others pass through
 * untouched). It sets `ctx.clientId`, `ctx.client` and `ctx.state.roles`, awaits `onAuthenticate`,
 * then runs the rest of the chain. Identity is established per request, never per session.
 *
 * @example
 * ```ts
 * import { ApiKeyAuth, authMiddleware } from "@agentry/agentry/mcp";
 * const auth = authMiddleware(new ApiKeyAuth({ keys: { "sk-1": "ops" } }), {
 *   onAuthenticate: (client) => console.log("call from", client.clientId),
 * });
 * ```
 */
export function authMiddleware(provider: AuthProvider, options: AuthMiddlewareOptions = {}): AuthMiddleware {
  if (typeof provider?.authenticate !== "function") {
    throw new TypeError("authMiddleware: provider must authenticate");
  }
  checkOptionKeys(options, {
    owner: "authMiddleware",
    keys: AUTH_MIDDLEWARE_KEYS,
    ...authWording("authMiddleware"),
  });
  const { onAuthenticate } = options;
  if (onAuthenticate !== undefined && typeof onAuthenticate !== "function") {
    throw new TypeError("authMiddleware: onAuthenticate must be a function");
  }
  const tenantClaim = options.tenantClaim ?? "tenant_id";
  if (typeof tenantClaim !== "string" || tenantClaim === "") {
    throw new TypeError("authMiddleware: tenantClaim must be a non-empty string");
  }

  function clientOf(
    identity: Identity,
    meta: Readonly<Record<string, string>>,
    ipAddress: string | undefined,
  ): ClientContext {
    const clientId = nonEmpty(identity?.clientId);
    if (clientId === undefined) throw new ToolError("AUTHENTICATION_ERROR", "Authentication required");
    const claims: Record<string, unknown> = { ...identity.claims };
    const init: ClientContextInit = {
      clientId,
      tenantId: nonEmpty(claims[tenantClaim]) ?? nonEmpty(identity.tenantId),
      roles: new Set([...stringList(claims.roles), ...stringList(identity.roles)]),
      scopes: scopeList(claims.scope),
      claims,
      issuer: nonEmpty(claims.iss),
      audience: audienceOf(claims.aud),
      subject: nonEmpty(claims.sub),
      issuedAt: finite(claims.iat),
      expiresAt: finite(claims.exp),
      ipAddress,
      userAgent: Object.hasOwn(meta, "user-agent") ? meta["user-agent"] : undefined,
    };
    return new ClientContext(init);
  }

  async function identify(
    meta: Readonly<Record<string, string>>,
    request: IdentifyRequest = {},
  ): Promise<ClientContext> {
    return clientOf(await provider.authenticate(meta), meta, request.ipAddress);
  }

  function enter(ctx: RequestContext, client: ClientContext): void {
    ctx.clientId = client.clientId;
    ctx.client = client;
    ctx.state.roles = [...client.roles];
  }

  async function middleware(ctx: RequestContext, next: Next): Promise<unknown> {
    if (ctx.definition.auth !== true) return next();
    const client = await identify(ctx.meta, { ipAddress: ctx.ipAddress });
    enter(ctx, client);
    await onAuthenticate?.(client, ctx);
    return next();
  }

  // A provider that answers at once and no hook: the caller is set and the chain goes on in the same
  // turn, with no promise of this middleware's own (same outcome as `middleware`).
  const now = (provider as { [AUTHENTICATE_NOW]?: (meta: Readonly<Record<string, string>>) => Identity })[
    AUTHENTICATE_NOW
  ];
  function immediate(ctx: RequestContext, next: Next): Promise<unknown> {
    if (ctx.definition.auth !== true) return next();
    try {
      enter(ctx, clientOf(now!.call(provider, ctx.meta), ctx.meta, ctx.ipAddress));
    } catch (error) {
      return Promise.reject(error);
    }
    return next();
  }

  const chosen = typeof now === "function" && onAuthenticate === undefined ? immediate : middleware;
  const result: AuthMiddleware = Object.freeze(Object.assign(chosen, { provider, identify }));
  CREATED.add(result);
  return result;
}

/** Whether `middleware` was made by {@linkcode authMiddleware}. */
export function isAuthMiddleware(middleware: Middleware): middleware is AuthMiddleware {
  return CREATED.has(middleware);
}

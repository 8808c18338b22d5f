/**
 * The HTTP auth gate: with `requireAuth` and an auth middleware whose provider can verify raw
 * credentials, MCP requests without a valid bearer token or API key get 401 before the MCP layer.
 * A verified request yields a principal (scheme + SHA-256 of the credential) that sessions are bound to.
 *
 * @module
 */

import type { Logger } from "../../log.ts";
import { describeError } from "../../_util/errors.ts";
import { isAuthMiddleware } from "../auth/auth_middleware.ts";
import type { ToolServer } from "../tool_server.ts";
import type { AuthProvider } from "../types.ts";
import { json } from "./_http.ts";

/** The gate's verdict: a principal (undefined without a gate) or the 401 to answer. */
export type GateResult = { ok: true; principal?: string } | { ok: false; response: Response };

const encoder = new TextEncoder();

/** The provider the gate verifies with, or undefined when the gate is off. */
export function gateProvider(server: ToolServer): AuthProvider | undefined {
  if (!server.requireAuth) return undefined;
  for (const middleware of server.middleware) {
    if (isAuthMiddleware(middleware) && typeof middleware.provider.verifyToken === "function") {
      return middleware.provider;
    }
  }
  return undefined;
}

async function fingerprint(scheme: string, credential: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(credential)));
  return `${scheme}:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function refuse(error: string, message: string, challenge: string): GateResult {
  return { ok: false, response: json(401, { error, message }, { "www-authenticate": challenge }) };
}

async function verified(provider: AuthProvider, credential: string, logger: Logger): Promise<boolean> {
  try {
    return (await provider.verifyToken!(credential)) === true;
  } catch (error) {
    logger.warning("credential verification failed", { error: describeError(error) });
    return false;
  }
}

/** Checks `request` against the server's gate (a pass without principal when there is no gate). */
export async function authGate(server: ToolServer, request: Request): Promise<GateResult> {
  const provider = gateProvider(server);
  if (!provider) return { ok: true };
  const authorization = request.headers.get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(\S.*)$/i)?.[1].trim();
  if (bearer) {
    if (!(await verified(provider, bearer, server.logger))) {
      return refuse(
        "Invalid authentication token",
        "The bearer token was not accepted",
        'Bearer error="invalid_token"',
      );
    }
    return { ok: true, principal: await fingerprint("bearer", bearer) };
  }
  const header = provider.header.toLowerCase();
  const key = header === "authorization" ? null : request.headers.get(header);
  if (key) {
    if (!(await verified(provider, key, server.logger))) {
      return refuse("Invalid API key", `The key in ${header} was not accepted`, "Bearer");
    }
    return { ok: true, principal: await fingerprint("api-key", key) };
  }
  const how = header === "authorization"
    ? "a bearer token in Authorization"
    : `a bearer token or an API key in ${header}`;
  return refuse("Authentication required", `Send ${how}`, "Bearer");
}

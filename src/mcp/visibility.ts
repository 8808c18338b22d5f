/**
 * Per-caller listings for `hideUnauthorizedTools`.
 *
 * Items with neither `auth` nor guards are always listed. For the others the caller is identified
 * from this request's headers, once per distinct auth middleware (the server's first, else the item's
 * router's); an item that needs auth is hidden when identification fails, and an item is hidden when
 * any guard returns false or throws (fail closed). Hiding is not access control: calls to hidden
 * items are still refused by their guards.
 *
 * @module
 */

import type { ClientContext } from "./client_context.ts";
import type { ItemDefinition } from "./definitions.ts";
import { type AuthMiddleware, isAuthMiddleware } from "./auth/auth_middleware.ts";
import type { RequestType } from "./request_context.ts";
import type { CallInfo } from "./pipeline.ts";
import { internalsOf, type ToolServer } from "./tool_server.ts";

const REQUEST_TYPE: Record<ItemDefinition["kind"], RequestType> = {
  tool: "tool",
  resource: "resource",
  resource_template: "resource",
  prompt: "prompt",
};

/** The items of `items` this caller may see (all of them unless the server hides unauthorized ones). */
export async function visibleItems<D extends ItemDefinition>(
  server: ToolServer,
  items: Iterable<D>,
  info: CallInfo,
): Promise<D[]> {
  if (!server.hideUnauthorizedTools) return [...items];
  const identities = new Map<AuthMiddleware, Promise<ClientContext | undefined>>();
  const serverAuth = server.middleware.find(isAuthMiddleware);
  const identify = (auth: AuthMiddleware) => {
    const known = identities.get(auth);
    if (known) return known;
    const found = auth.identify(info.meta, { ipAddress: info.ipAddress }).catch(() => undefined);
    identities.set(auth, found);
    return found;
  };
  const visible: D[] = [];
  for (const definition of items) {
    if (!definition.auth && definition.guards.length === 0) {
      visible.push(definition);
      continue;
    }
    const auth = serverAuth ?? definition.middleware.find(isAuthMiddleware);
    const client = auth ? await identify(auth) : undefined;
    if (definition.auth && !client) continue;
    const ctx = internalsOf(server).pipeline.context(definition, REQUEST_TYPE[definition.kind], {}, info);
    if (client) {
      ctx.client = client;
      ctx.clientId = client.clientId;
      ctx.state.roles = [...client.roles];
    }
    let allowed = true;
    for (const guard of definition.guards) {
      try {
        allowed = await guard.check(ctx);
      } catch {
        allowed = false;
      }
      if (!allowed) break;
    }
    if (allowed) visible.push(definition);
  }
  return visible;
}

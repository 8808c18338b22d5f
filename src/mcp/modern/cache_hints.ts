/**
 * Caching hints (`ttlMs`, `cacheScope`) for the cacheable results of the 2026-07-28 revision.
 *
 * A result may be cached by shared caches (`public`) only when it is the same for every caller: not
 * when listings are filtered per caller (`hideUnauthorizedTools`), not when the server authenticates
 * callers (an authenticated answer must not be handed to someone else), and never for
 * `resources/read`, whose handlers see the caller. Lifetimes are 0 (revalidate every time): items
 * can be registered while serving, and modern clients hear of it on `subscriptions/listen`.
 *
 * @module
 */

import type { CacheHint } from "@modelcontextprotocol/server";
import { isAuthMiddleware } from "../auth/auth_middleware.ts";
import type { ToolServer } from "../tool_server.ts";

/** The methods whose results carry caching hints. */
export type CacheableMethod =
  | "tools/list"
  | "prompts/list"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read"
  | "server/discover";

/** Whether `server`'s listings are the same for every caller. */
export function listsAreShared(server: ToolServer): boolean {
  return !server.hideUnauthorizedTools && !server.requireAuth && !server.requireTenant &&
    !server.middleware.some(isAuthMiddleware);
}

/** The caching hints of `server`'s cacheable results, by method. */
export function cacheHints(server: ToolServer): Record<CacheableMethod, CacheHint> {
  const list: CacheHint = { ttlMs: 0, cacheScope: listsAreShared(server) ? "public" : "private" };
  return {
    "tools/list": list,
    "prompts/list": list,
    "resources/list": list,
    "resources/templates/list": list,
    "resources/read": { ttlMs: 0, cacheScope: "private" },
    "server/discover": { ttlMs: 0, cacheScope: "public" },
  };
}

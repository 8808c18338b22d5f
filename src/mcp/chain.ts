/**
 * Composes middleware around a final step, first middleware outermost.
 *
 * @module
 */

import type { RequestContext } from "./request_context.ts";
import type { Middleware, Next } from "./types.ts";

/** A composed chain: runs every middleware around `inner` for one context. */
export type Chain = (ctx: RequestContext, inner: Next) => Promise<unknown>;

/**
 * Builds a chain from `middleware`, the first entry running outermost. A middleware (or `inner`) that
 * throws instead of returning a promise is seen by the ones around it as a rejected promise.
 */
export function composeChain(middleware: readonly Middleware[]): Chain {
  const list = [...middleware];
  if (list.length === 0) return (_ctx, inner) => inner();
  return (ctx, inner) => {
    const step = (index: number): Promise<unknown> => {
      try {
        if (index === list.length) return inner();
        let called = false;
        return list[index](ctx, () => {
          if (called) return Promise.reject(new Error("middleware called next() twice"));
          called = true;
          return step(index + 1);
        });
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return step(0);
  };
}

/** Roles the server looks for in its middleware list. */
export type MiddlewareRole = "auth" | "approval" | "circuit_breaker";

const ROLE: unique symbol = Symbol("agentry.mcp.middlewareRole");

/** Marks `middleware` as playing `role` (the server wires auth, approval and breakers by role). */
export function withRole<M extends Middleware>(middleware: M, role: MiddlewareRole): M {
  Object.defineProperty(middleware, ROLE, { value: role });
  return middleware;
}

/** The role `middleware` was marked with, if any. */
export function middlewareRole(middleware: Middleware): MiddlewareRole | undefined {
  return (middleware as Middleware & { [ROLE]?: MiddlewareRole })[ROLE];
}

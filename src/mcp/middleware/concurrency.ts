/**
 * Concurrency caps: a server-wide limiter and a per-tool limiter sized by each tool's `maxConcurrent`.
 * Both refuse at once when full; nothing queues.
 *
 * @module
 */

import { ToolError } from "../errors.ts";
import type { Middleware } from "../types.ts";
import { checkNumber, MIDDLEWARE_WORDING } from "./_options.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";

/** Options for {@linkcode concurrencyLimiter}. */
export interface ConcurrencyOptions {
  /** Calls allowed in flight at once; 0 only tracks. @default 100 */
  maxConcurrent?: number;
}

const CONCURRENCY_KEYS = { maxConcurrent: true } satisfies Record<keyof ConcurrencyOptions, true>;

/** Counters of a {@linkcode ConcurrencyLimiter}. */
export interface ConcurrencyStats {
  /** Calls in flight now. */
  active: number;
  /** Calls admitted since creation. */
  total: number;
  /** Most calls ever in flight at once. */
  peak: number;
}

/** A middleware capping calls in flight, with its counters. */
export interface ConcurrencyLimiter extends Middleware {
  /** A snapshot of the counters. */
  stats(): ConcurrencyStats;
}

/**
 * Refuses a call with a retryable `CONCURRENCY_LIMIT_EXCEEDED` when `maxConcurrent` calls are already
 * in flight (0 = no cap, only counting).
 *
 * @example
 * ```ts
 * import { concurrencyLimiter, createToolServer } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * const limiter = concurrencyLimiter({ maxConcurrent: 50 });
 * server.use(limiter);
 * limiter.stats(); // { active, total, peak }
 * ```
 */
export function concurrencyLimiter(options: ConcurrencyOptions = {}): ConcurrencyLimiter {
  checkOptionKeys(options, { owner: "concurrencyLimiter", keys: CONCURRENCY_KEYS, ...MIDDLEWARE_WORDING });
  const { maxConcurrent = 100 } = options;
  checkNumber("concurrencyLimiter", { name: "maxConcurrent", value: maxConcurrent, integer: true, min: 0 });
  const counts: ConcurrencyStats = { active: 0, total: 0, peak: 0 };
  const middleware: Middleware = async (_ctx, next) => {
    if (maxConcurrent > 0 && counts.active >= maxConcurrent) {
      throw new ToolError(
        "CONCURRENCY_LIMIT_EXCEEDED",
        `Server at capacity (${maxConcurrent} concurrent requests)`,
        { retryable: true },
      );
    }
    counts.active++;
    counts.total++;
    counts.peak = Math.max(counts.peak, counts.active);
    try {
      return await next();
    } finally {
      counts.active--;
    }
  };
  return Object.assign(middleware, { stats: () => ({ ...counts }) });
}

/**
 * Caps each tool at its own `maxConcurrent` calls in flight, refusing further calls at once with a
 * retryable `CONCURRENCY_LIMIT_EXCEEDED`. Tools without the option, resources and prompts pass through.
 */
export function perToolConcurrencyLimiter(): Middleware {
  const active = new Map<string, number>();
  return async (ctx, next) => {
    const definition = ctx.definition;
    const cap = definition.kind === "tool" ? definition.maxConcurrent : undefined;
    if (cap === undefined) return await next();
    const name = ctx.name;
    const current = active.get(name) ?? 0;
    if (current >= cap) {
      throw new ToolError(
        "CONCURRENCY_LIMIT_EXCEEDED",
        `Tool '${name}' at capacity (${cap} concurrent calls)`,
        {
          retryable: true,
        },
      );
    }
    active.set(name, current + 1);
    try {
      return await next();
    } finally {
      const left = (active.get(name) ?? 1) - 1;
      if (left > 0) active.set(name, left);
      else active.delete(name);
    }
  };
}

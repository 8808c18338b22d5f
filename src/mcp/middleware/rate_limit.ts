/**
 * Rate limiting: a token-bucket limiter, a server-wide rate-limit middleware, and the middleware that
 * enforces the limits items declare with `rateLimit: "100/min"`.
 *
 * @module
 */

import { ToolError } from "../errors.ts";
import { isInputRequired } from "../input_required.ts";
import type { RequestContext } from "../request_context.ts";
import type { Middleware } from "../types.ts";
import { callerKey, checkNumber, MIDDLEWARE_WORDING } from "./_options.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";

/** A parsed declared rate limit: `count` calls per `perSeconds` seconds. */
export interface RateLimitSpec {
  /** Calls allowed per period (also the bucket capacity). */
  count: number;
  /** Length of the period in seconds. */
  perSeconds: number;
}

const UNIT_SECONDS: Readonly<Record<string, number>> = {
  s: 1,
  sec: 1,
  second: 1,
  m: 60,
  min: 60,
  minute: 60,
  h: 3600,
  hr: 3600,
  hour: 3600,
};

/**
 * Parses a declared limit such as `"100/min"`: a positive integer, `/`, and one of the units
 * s, sec, second, m, min, minute, h, hr, hour. Throws a `TypeError` naming the spec otherwise.
 *
 * @example
 * ```ts
 * parseRateLimit("10/sec"); // { count: 10, perSeconds: 1 }
 * ```
 */
export function parseRateLimit(spec: string): RateLimitSpec {
  const match = typeof spec === "string" ? /^\s*(\d+)\s*\/\s*([a-z]+)\s*$/.exec(spec) : null;
  const count = match ? Number(match[1]) : NaN;
  const perSeconds = match ? UNIT_SECONDS[match[2]] : undefined;
  if (!Number.isSafeInteger(count) || count <= 0 || perSeconds === undefined) {
    throw new TypeError(
      `Invalid rate limit ${JSON.stringify(spec)}: expected "<positive count>/<unit>" ` +
        `with unit s, sec, second, m, min, minute, h, hr or hour (e.g. "100/min")`,
    );
  }
  return { count, perSeconds };
}

/** Options for {@linkcode TokenBucketLimiter}. */
export interface TokenBucketOptions {
  /** Tokens refilled per minute. @default 60 */
  ratePerMinute?: number;
  /** Bucket capacity (the largest burst). @default ratePerMinute */
  burst?: number;
}

const TOKEN_BUCKET_KEYS = { ratePerMinute: true, burst: true } satisfies Record<
  keyof TokenBucketOptions,
  true
>;

/** The answer of {@linkcode TokenBucketLimiter.take}. */
export interface TakeResult {
  /** Whether a token was available (and taken). */
  allowed: boolean;
  /** Seconds until a token will be available; 0 when allowed. */
  retryAfterSeconds: number;
}

const ALLOWED: TakeResult = Object.freeze({ allowed: true, retryAfterSeconds: 0 });
const IDLE_MS = 5 * 60_000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_ABOVE = 100;
const MAX_BUCKETS = 10_000;

/** A token bucket per key, refilled continuously; time comes from `Date.now()`. */
export class TokenBucketLimiter {
  #perMs: number;
  #burst: number;
  #buckets = new Map<string, { tokens: number; at: number }>();
  #lastSweep = Date.now();

  /** A limiter refilling `ratePerMinute` tokens a minute up to `burst`. */
  constructor(options: TokenBucketOptions = {}) {
    checkOptionKeys(options, { owner: "TokenBucketLimiter", keys: TOKEN_BUCKET_KEYS, ...MIDDLEWARE_WORDING });
    const { ratePerMinute = 60, burst = ratePerMinute } = options;
    checkNumber("TokenBucketLimiter", { name: "ratePerMinute", value: ratePerMinute });
    checkNumber("TokenBucketLimiter", { name: "burst", value: burst, min: 1 });
    this.#perMs = ratePerMinute / 60_000;
    this.#burst = burst;
  }

  /** Buckets currently kept. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one token from `key`'s bucket if it has one. */
  take(key: string): TakeResult {
    const now = Date.now();
    const bucket = this.#buckets.get(key);
    let tokens = bucket ? this.#refilled(bucket, now) : this.#burst;
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    if (bucket) {
      bucket.tokens = tokens;
      bucket.at = now;
    } else {
      this.#buckets.set(key, { tokens, at: now });
      this.#maybeSweep(now);
    }
    return allowed ? ALLOWED : { allowed, retryAfterSeconds: (1 - tokens) / this.#perMs / 1000 };
  }

  /**
   * Gives one token back to `key`'s bucket (never above `burst`): the middleware refunds a round of a
   * 2026-07-28 call that ended asking its client for input, so the call is charged once.
   */
  refund(key: string): void {
    const bucket = this.#buckets.get(key);
    if (!bucket) return;
    const now = Date.now();
    bucket.tokens = Math.min(this.#burst, this.#refilled(bucket, now) + 1);
    bucket.at = now;
  }

  #refilled(bucket: { tokens: number; at: number }, now: number): number {
    return Math.min(this.#burst, bucket.tokens + Math.max(0, now - bucket.at) * this.#perMs);
  }

  // Drops buckets idle over five minutes, but only once they have refilled: dropping a bucket that is
  // still short of tokens would hand the caller a fresh, full one. Past MAX_BUCKETS the sweep runs at
  // most once a second, so a map of busy buckets does not make every take() walk it.
  #maybeSweep(now: number): void {
    const size = this.#buckets.size;
    const since = now - this.#lastSweep;
    if (!(size > SWEEP_ABOVE && since >= SWEEP_EVERY_MS) && !(size > MAX_BUCKETS && since >= 1000)) return;
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.at > IDLE_MS && this.#refilled(bucket, now) >= this.#burst) this.#buckets.delete(key);
    }
    this.#lastSweep = now;
  }
}

/** Anything that can refuse a key: a {@linkcode TokenBucketLimiter} or your own strategy. */
export interface RateLimiter {
  /** Takes one unit for `key`. */
  take(key: string): TakeResult;
  /**
   * Gives back the unit taken for `key` by a round that ended `input_required` (its retry is charged
   * instead). Without it, every round of such a call is charged.
   */
  refund?(key: string): void;
}

/** Options for {@linkcode rateLimitMiddleware}. */
export interface RateLimitOptions {
  /** Refill rate of the default limiter. @default 60 */
  ratePerMinute?: number;
  /** Capacity of the default limiter. @default ratePerMinute */
  burst?: number;
  /** Give each tool its own bucket per caller. @default false */
  perTool?: boolean;
  /** Computes the bucket key instead (overrides `perTool`). @default tenant + client id, else "global" */
  keyFunc?: (ctx: RequestContext) => string;
  /** The limiter to use instead of a new {@linkcode TokenBucketLimiter}. */
  limiter?: RateLimiter;
}

const RATE_LIMIT_KEYS = {
  ratePerMinute: true,
  burst: true,
  perTool: true,
  keyFunc: true,
  limiter: true,
} satisfies Record<keyof RateLimitOptions, true>;

// The suggestion rounds the wait up and never says 0 seconds.
function rateLimitError(message: string, retryAfterSeconds: number): ToolError {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ToolError("RATE_LIMIT_EXCEEDED", message, {
    retryable: true,
    suggestion: `Wait ${wait} second${wait === 1 ? "" : "s"} before retrying`,
    details: { retry_after_seconds: Math.ceil(retryAfterSeconds * 1000 - 1e-6) / 1000 },
  });
}

/**
 * Refuses calls over a token-bucket rate with `RATE_LIMIT_EXCEEDED`. Buckets are per tenant and client
 * (unauthenticated callers share one "global" bucket), and per tool with `perTool`.
 *
 * A call on a 2026-07-28 request that asks its client for input (an approval, say) runs in rounds: a
 * round that ends `input_required` needs a token to start but gets it back (the limiter's `refund`),
 * so the call is charged once, for the round that runs to its end. A replayed final round is charged
 * like any call.
 *
 * @example
 * ```ts
 * import { createToolServer, rateLimitMiddleware } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * server.use(rateLimitMiddleware({ ratePerMinute: 120, burst: 20, perTool: true }));
 * ```
 */
export function rateLimitMiddleware(options: RateLimitOptions = {}): Middleware {
  checkOptionKeys(options, { owner: "rateLimitMiddleware", keys: RATE_LIMIT_KEYS, ...MIDDLEWARE_WORDING });
  const { perTool = false, keyFunc, limiter: given } = options;
  if (given && (options.ratePerMinute !== undefined || options.burst !== undefined)) {
    throw new TypeError("rateLimitMiddleware: give either limiter or ratePerMinute/burst, not both");
  }
  const limiter = given ??
    new TokenBucketLimiter({ ratePerMinute: options.ratePerMinute, burst: options.burst });
  return (ctx, next) => {
    let key: string;
    let taken: TakeResult;
    try {
      key = keyFunc ? keyFunc(ctx) : defaultKey(ctx, perTool);
      taken = limiter.take(key);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!taken.allowed) return Promise.reject(rateLimitError("Rate limit exceeded", taken.retryAfterSeconds));
    return refundingRound(limiter, key, next);
  };
}

/**
 * `next()`, giving `key`'s unit back to `limiter` when the round ends `input_required`. The refund
 * watches the round on a side branch, so the answer's own path gains no step.
 */
function refundingRound(limiter: RateLimiter, key: string, next: () => Promise<unknown>): Promise<unknown> {
  let running: Promise<unknown>;
  try {
    running = next();
  } catch (error) {
    return Promise.reject(error);
  }
  if (typeof limiter.refund === "function") {
    running.catch((error: unknown) => {
      if (isInputRequired(error)) limiter.refund?.(key);
    });
  }
  return running;
}

function defaultKey(ctx: RequestContext, perTool: boolean): string {
  const caller = callerKey(ctx.tenantId, ctx.clientId);
  if (!perTool) return caller;
  const item = ctx.requestType === "tool" ? ctx.name : `${ctx.requestType}:${ctx.name}`;
  return `${caller}|${item.length}:${item}`;
}

/**
 * Enforces each item's declared `rateLimit` (capacity N, refilled N per unit), with one limiter per
 * item and a bucket per tenant and client. Items without a declared limit pass through. A round that
 * ends `input_required` is refunded, as in {@linkcode rateLimitMiddleware}.
 */
export function declaredRateLimitMiddleware(): Middleware {
  const limiters = new Map<string, { spec: string; limiter: TokenBucketLimiter }>();
  return async (ctx, next) => {
    const spec = ctx.definition.rateLimit;
    if (!spec) return await next();
    const item = `${ctx.requestType}:${ctx.name}`;
    let entry = limiters.get(item);
    if (entry?.spec !== spec) {
      const { count, perSeconds } = parseRateLimit(spec);
      entry = {
        spec,
        limiter: new TokenBucketLimiter({ ratePerMinute: count * 60 / perSeconds, burst: count }),
      };
      limiters.set(item, entry);
    }
    const key = callerKey(ctx.tenantId, ctx.clientId);
    const { allowed, retryAfterSeconds } = entry.limiter.take(key);
    if (allowed) return await refundingRound(entry.limiter, key, next);
    const message = `Rate limit exceeded for ${ctx.requestType} '${ctx.name}' (declared limit: ${spec})`;
    throw rateLimitError(message, retryAfterSeconds);
  };
}

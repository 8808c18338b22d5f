/**
 * Result caching for tools: a backend contract, an in-memory LRU backend, and the middleware that
 * caches raw handler results per caller scope, computing each key once at a time.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import { canonicalJson } from "../audit/canonical_json.ts";
import { runGuards } from "../guards.ts";
import { isInputRequired } from "../input_required.ts";
import type { RequestContext } from "../request_context.ts";
import type { Middleware, Next } from "../types.ts";
import { checkNumber, composeKey, MIDDLEWARE_WORDING } from "./_options.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";

/** Where cached results live. `get` answers `undefined` for a miss. */
export interface CacheBackend {
  /** The value stored under `key`, or `undefined`. */
  get(key: string): Promise<unknown | undefined>;
  /** Stores `value` under `key` for `ttlSeconds` seconds. */
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /** Forgets `key`. */
  delete(key: string): Promise<void>;
  /** Forgets everything. */
  clear(): Promise<void>;
}

/** Options for {@linkcode InMemoryCache}. */
export interface InMemoryCacheOptions {
  /** Most entries kept; the least recently used goes first. 0 = unlimited. @default 0 */
  maxSize?: number;
  /** Seconds between sweeps of expired entries. @default 60 */
  cleanupInterval?: number;
}

const IN_MEMORY_CACHE_KEYS = { maxSize: true, cleanupInterval: true } satisfies Record<
  keyof InMemoryCacheOptions,
  true
>;

/**
 * A process-local {@linkcode CacheBackend}. Values are kept as given (not copied). A sweep of expired
 * entries starts with the first write, never holds the process open, and stops on {@linkcode close}.
 */
export class InMemoryCache implements CacheBackend {
  #entries = new Map<string, { value: unknown; expiresAt: number }>();
  #maxSize: number;
  #intervalMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /** An empty cache. */
  constructor(options: InMemoryCacheOptions = {}) {
    checkOptionKeys(options, { owner: "InMemoryCache", keys: IN_MEMORY_CACHE_KEYS, ...MIDDLEWARE_WORDING });
    const { maxSize = 0, cleanupInterval = 60 } = options;
    checkNumber("InMemoryCache", { name: "maxSize", value: maxSize, integer: true, min: 0 });
    checkNumber("InMemoryCache", { name: "cleanupInterval", value: cleanupInterval });
    this.#maxSize = maxSize;
    this.#intervalMs = cleanupInterval * 1000;
  }

  /** Entries held, expired ones included until swept or read. */
  get size(): number {
    return this.#entries.size;
  }

  /** The live value under `key`, marking it recently used. */
  get(key: string): Promise<unknown | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return Promise.resolve(undefined);
    this.#entries.delete(key);
    if (entry.expiresAt <= Date.now()) return Promise.resolve(undefined);
    this.#entries.set(key, entry);
    return Promise.resolve(entry.value);
  }

  /** Stores `value` for `ttlSeconds` (a positive number; `Infinity` never expires). */
  set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    if (!(ttlSeconds > 0)) {
      return Promise.reject(new RangeError(`ttlSeconds must be above 0, got ${ttlSeconds}`));
    }
    this.#entries.delete(key);
    if (this.#maxSize > 0 && this.#entries.size >= this.#maxSize) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.#entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
    this.#startSweep();
    return Promise.resolve();
  }

  /** Forgets `key`. */
  delete(key: string): Promise<void> {
    this.#entries.delete(key);
    return Promise.resolve();
  }

  /** Forgets everything. */
  clear(): Promise<void> {
    this.#entries.clear();
    return Promise.resolve();
  }

  /** Stops the background sweep for good; entries still expire when read. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #startSweep(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setInterval(() => this.#sweep(), this.#intervalMs);
    unrefTimer(this.#timer);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }
}

// Deno timers are numbers; fake or Node-style timers carry their own unref().
function unrefTimer(timer: unknown): void {
  if (typeof timer === "number") Deno.unrefTimer(timer);
  else (timer as { unref?: () => void }).unref?.();
}

/** Who shares cached results: each caller, each tenant, or everyone. */
export type CacheScope = "client" | "tenant" | "shared";

/** Options for {@linkcode cacheMiddleware}. */
export interface CacheOptions {
  /** Where results live. @default a new InMemoryCache, closed by `close()` */
  backend?: CacheBackend;
  /** Seconds a result stays cached. @default 60 */
  ttl?: number;
  /** Who shares results; unauthenticated callers share "anonymous". @default "client" */
  scope?: CacheScope;
}

const CACHE_KEYS = { backend: true, ttl: true, scope: true } satisfies Record<keyof CacheOptions, true>;

/** A caching middleware; `close()` stops the sweep of the backend it created itself. */
export interface CacheMiddleware extends Middleware {
  /** The backend in use. */
  readonly backend: CacheBackend;
  /** Closes the default backend (a backend you passed in is left alone). */
  close(): void;
}

/**
 * Caches tool results for `ttl` seconds under `cache:<server>:<tool>:<scope>:<sha256 of the arguments>`.
 * Skips tools with `cache: false` or a destructive hint, and tools needing auth while the caller is
 * not identified yet (the middleware sits before auth; warned once). Concurrent identical calls share
 * one computation and its error; errors are never cached. A round of a 2026-07-28 call that ends asking
 * its client for input (`input_required`) is neither cached nor shared: a call waiting on it computes
 * on its own. The tool's guards run again on every hit.
 *
 * @example
 * ```ts
 * import { ApiKeyAuth, authMiddleware, cacheMiddleware, createToolServer } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * const provider = new ApiKeyAuth({ keys: { "dev-key": "alice" } });
 * server.use(authMiddleware(provider), cacheMiddleware({ ttl: 300, scope: "tenant" }));
 * ```
 */
export function cacheMiddleware(options: CacheOptions = {}): CacheMiddleware {
  checkOptionKeys(options, { owner: "cacheMiddleware", keys: CACHE_KEYS, ...MIDDLEWARE_WORDING });
  const { ttl = 60, scope = "client" } = options;
  checkNumber("cacheMiddleware", { name: "ttl", value: ttl });
  if (!["client", "tenant", "shared"].includes(scope)) {
    throw new TypeError(
      `cacheMiddleware: scope must be "client", "tenant" or "shared", got ${String(scope)}`,
    );
  }
  const owned = options.backend ? undefined : new InMemoryCache();
  const backend = options.backend ?? owned as InMemoryCache;
  const inflight = new Map<string, { promise: Promise<unknown>; signal: AbortSignal }>();
  const warned = new Set<string>();

  const read = async (ctx: RequestContext, key: string): Promise<unknown> => {
    try {
      return await backend.get(key);
    } catch (error) {
      warn(ctx, "cache read failed", error);
      return undefined;
    }
  };

  const compute = async (ctx: RequestContext, key: string, next: Next): Promise<unknown> => {
    const value = await next();
    if (value === undefined) return value; // indistinguishable from a miss
    try {
      await backend.set(key, value, ttl);
    } catch (error) {
      warn(ctx, "cache write failed", error);
    }
    return value;
  };

  const lookup = async (ctx: RequestContext, key: string, next: Next): Promise<unknown> => {
    let guarded = false;
    for (;;) {
      const hit = await read(ctx, key);
      const flight = inflight.get(key);
      if (hit === undefined && !flight) break;
      if (!guarded) await checkGuards(ctx);
      guarded = true;
      if (hit !== undefined || !flight) return hit;
      try {
        return await flight.promise;
      } catch (error) {
        // A leader that asked its client for input, or was cancelled by its own client, hands over:
        // this caller computes instead (another call's questions and answers are never shared).
        if (isInputRequired(error)) continue;
        if (!flight.signal.aborted || ctx.signal.aborted) throw error;
      }
    }
    const entry = { promise: compute(ctx, key, next), signal: ctx.signal };
    inflight.set(key, entry);
    try {
      return await entry.promise;
    } finally {
      if (inflight.get(key) === entry) inflight.delete(key);
    }
  };

  const middleware: Middleware = async (ctx, next) => {
    const definition = ctx.definition;
    if (definition.kind !== "tool" || ctx.requestType !== "tool") return await next();
    if (!definition.cache || definition.annotations?.destructiveHint === true) return await next();
    if (definition.auth && !ctx.client) {
      if (!warned.has(ctx.name)) {
        warned.add(ctx.name);
        ctx.logger.warning("cache skipped: tool needs auth but the caller is not identified yet", {
          tool: ctx.name,
          hint: "install the cache middleware after the auth middleware",
        });
      }
      return await next();
    }
    const digest = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(canonicalJson(ctx.arguments)),
    );
    const key = `cache:${ctx.serverName}:${ctx.name}:${scopePart(ctx, scope)}:${hex(digest)}`;
    return await lookup(ctx, key, next);
  };
  return Object.assign(middleware, { backend, close: () => owned?.close() });
}

function scopePart(ctx: RequestContext, scope: CacheScope): string {
  if (scope === "shared") return "shared";
  const client = ctx.client;
  if (!client) return "anonymous";
  if (scope === "tenant") return client.tenantId ? `tenant=${client.tenantId}` : "anonymous";
  return `client=${composeKey([client.issuer ?? "", client.tenantId ?? "", client.clientId])}`;
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// A hit skips the handler, and with it the guards the pipeline runs just before it; run them here.
function checkGuards(ctx: RequestContext): Promise<void> {
  return runGuards(ctx, ctx.definition.guards);
}

function warn(ctx: RequestContext, message: string, error: unknown): void {
  ctx.logger.warning(message, { tool: ctx.name, error: describeError(error) });
}

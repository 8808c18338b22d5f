import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { ClientContext } from "../client_context.ts";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { RequestContext } from "../request_context.ts";
import type { Guard } from "../types.ts";
import { DEAD_SESSION, testContext, testTool } from "../_test_context.ts";
import type { TestToolInit } from "../_test_context.ts";
import { Logger } from "../../log.ts";
import { cacheMiddleware, InMemoryCache } from "./cache.ts";
import type { CacheBackend } from "./cache.ts";

/** A backend over a plain map that records the keys and TTLs written. */
class MapBackend implements CacheBackend {
  readonly data = new Map<string, unknown>();
  readonly writes: Array<[string, number]> = [];
  get(key: string) {
    return Promise.resolve(this.data.get(key));
  }
  set(key: string, value: unknown, ttl: number) {
    this.writes.push([key, ttl]);
    this.data.set(key, value);
    return Promise.resolve();
  }
  delete(key: string) {
    this.data.delete(key);
    return Promise.resolve();
  }
  clear() {
    this.data.clear();
    return Promise.resolve();
  }
}

interface CallOptions {
  args?: Record<string, unknown>;
  client?: { id: string; tenant?: string; issuer?: string };
  tool?: TestToolInit;
  signal?: AbortSignal;
}

function call(options: CallOptions = {}) {
  const { ctx, logs } = testContext({
    tool: testTool(options.tool),
    args: options.args ?? { q: "x" },
    signal: options.signal,
  });
  const client = options.client;
  if (client) {
    ctx.clientId = client.id;
    ctx.client = new ClientContext({ clientId: client.id, tenantId: client.tenant, issuer: client.issuer });
  }
  return { ctx, logs };
}

/** A handler that counts its runs and answers a fresh object each time. */
function counter() {
  let runs = 0;
  const next = () => Promise.resolve({ run: ++runs });
  return { next, runs: () => runs };
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("in-memory cache expires entries and evicts the least recently used past maxSize", async () => {
  const clock = FakeTimers.install({ toFake: ["Date", "setInterval", "clearInterval"] });
  const cache = new InMemoryCache({ maxSize: 2 });
  try {
    await cache.set("a", 1, 10);
    await cache.set("b", 2, 10);
    assert.equal(await cache.get("a"), 1, "reading a makes b the least recently used");
    await cache.set("c", 3, 10);
    assert.deepEqual([await cache.get("a"), await cache.get("b"), await cache.get("c")], [1, undefined, 3]);
    clock.tick(10_000);
    assert.equal(await cache.get("a"), undefined);
    await cache.set("d", 4, Infinity);
    await cache.delete("d");
    assert.equal(await cache.get("d"), undefined);
    await cache.set("e", 5, 1);
    await cache.clear();
    assert.equal(cache.size, 0);
    await assert.rejects(cache.set("f", 6, 0), RangeError);
  } finally {
    cache.close();
    clock.uninstall();
  }
});

Deno.test("in-memory cache sweeps expired entries in the background from the first write until closed", async () => {
  const clock = FakeTimers.install({ toFake: ["Date", "setInterval", "clearInterval"] });
  const cache = new InMemoryCache({ cleanupInterval: 5 });
  try {
    assert.equal(clock.countTimers(), 0, "no sweep before the first write");
    await cache.set("short", 1, 2);
    await cache.set("long", 2, 60);
    assert.equal(clock.countTimers(), 1);
    clock.tick(4_999);
    assert.equal(cache.size, 2);
    clock.tick(1);
    assert.equal(cache.size, 1, "the expired entry was swept without being read");
    cache.close();
    assert.equal(clock.countTimers(), 0);
    await cache.set("again", 3, 1);
    assert.equal(clock.countTimers(), 0, "a closed cache never restarts its sweep");
    const unlimited = new InMemoryCache();
    for (let i = 0; i < 1000; i++) await unlimited.set(`k${i}`, i, 60);
    assert.equal(unlimited.size, 1000, "maxSize 0 keeps everything");
    clock.tick(59_999);
    assert.equal(unlimited.size, 1000);
    clock.tick(1);
    assert.equal(unlimited.size, 0, "the default sweep runs every 60 s");
    unlimited.close();
  } finally {
    cache.close();
    clock.uninstall();
  }
  assert.throws(() => new InMemoryCache({ maxSize: -1 }), RangeError);
  assert.throws(() => new InMemoryCache({ cleanupInterval: 0 }), RangeError);
  assert.throws(() => new InMemoryCache({ max_size: 1 } as never), /unknown option 'max_size'/);
});

Deno.test("identical calls hit the cache; argument order does not matter and other arguments miss", async () => {
  const backend = new MapBackend();
  const mw = cacheMiddleware({ backend });
  const handler = counter();
  const first = await mw(call({ args: { a: 1, b: { y: 2, x: 1 } } }).ctx, handler.next);
  const second = await mw(call({ args: { b: { x: 1, y: 2 }, a: 1 } }).ctx, handler.next);
  assert.equal(second, first, "the raw result object itself is returned");
  assert.deepEqual(await mw(call({ args: { a: 2 } }).ctx, handler.next), { run: 2 });
  assert.equal(handler.runs(), 2);
  const digest = await sha256Hex('{"a":1,"b":{"x":1,"y":2}}');
  assert.deepEqual(backend.writes[0], [`cache:test-server:echo:anonymous:${digest}`, 60]);
});

Deno.test("results expire after ttl seconds", async () => {
  const clock = FakeTimers.install({ toFake: ["Date", "setInterval", "clearInterval"] });
  const backend = new InMemoryCache();
  try {
    const mw = cacheMiddleware({ backend, ttl: 5 });
    const handler = counter();
    await mw(call().ctx, handler.next);
    clock.tick(4_999);
    await mw(call().ctx, handler.next);
    assert.equal(handler.runs(), 1);
    clock.tick(1);
    await mw(call().ctx, handler.next);
    assert.equal(handler.runs(), 2);
  } finally {
    backend.close();
    clock.uninstall();
  }
});

Deno.test("tools opting out, destructive tools, failed calls and undefined results are never cached", async () => {
  const backend = new MapBackend();
  const mw = cacheMiddleware({ backend });
  for (const tool of [{ cache: false }, { annotations: { destructiveHint: true } }]) {
    const handler = counter();
    await mw(call({ tool }).ctx, handler.next);
    await mw(call({ tool }).ctx, handler.next);
    assert.equal(handler.runs(), 2);
  }
  await assert.rejects(mw(call().ctx, () => Promise.reject(new Error("down"))), /down/);
  assert.equal(await mw(call().ctx, () => Promise.resolve(undefined)), undefined);
  assert.equal(backend.writes.length, 0);
  const safe = counter();
  await mw(call({ tool: { annotations: { destructiveHint: false } } }).ctx, safe.next);
  await mw(call({ tool: { annotations: { destructiveHint: false } } }).ctx, safe.next);
  assert.equal(safe.runs(), 1);
});

Deno.test("resource reads and prompt gets pass through", async () => {
  const backend = new MapBackend();
  const mw = cacheMiddleware({ backend });
  const ctx = new RequestContext({
    serverName: "s",
    definition: {
      kind: "prompt",
      name: "p",
      tags: [],
      auth: false,
      roles: [],
      guards: [],
      middleware: [],
      complete: {},
      handler: () => "x",
    },
    requestType: "prompt",
    requestId: "r",
    meta: {},
    arguments: {},
    session: DEAD_SESSION,
    signal: new AbortController().signal,
    logger: new Logger("t", { sink: () => {} }),
  });
  const handler = counter();
  await mw(ctx, handler.next);
  await mw(ctx, handler.next);
  assert.equal(handler.runs(), 2);
});

Deno.test("a tool needing auth is not cached before the caller is identified, with one warning", async () => {
  const mw = cacheMiddleware({ backend: new MapBackend() });
  const handler = counter();
  const first = call({ tool: { auth: true } });
  await mw(first.ctx, handler.next);
  const second = call({ tool: { auth: true } });
  await mw(second.ctx, handler.next);
  assert.equal(handler.runs(), 2);
  assert.equal(first.logs.filter((r) => r.level === "warning").length, 1);
  assert.equal(second.logs.length, 0, "warned once");
  await mw(call({ tool: { auth: true }, client: { id: "a" } }).ctx, handler.next);
  await mw(call({ tool: { auth: true }, client: { id: "a" } }).ctx, handler.next);
  assert.equal(handler.runs(), 3, "identified callers are cached");
});

Deno.test("client scope separates callers by issuer, tenant and id; anonymous callers share", async () => {
  const backend = new MapBackend();
  const mw = cacheMiddleware({ backend, scope: "client" });
  const handler = counter();
  const callers = [
    { id: "a" },
    { id: "a", tenant: "t1" },
    { id: "a", tenant: "t2" },
    { id: "a", issuer: "https://idp" },
    { id: "b", tenant: "t1" },
  ];
  for (const client of [...callers, ...callers]) await mw(call({ client }).ctx, handler.next);
  assert.equal(handler.runs(), callers.length);
  await mw(call().ctx, handler.next);
  await mw(call().ctx, handler.next);
  assert.equal(handler.runs(), callers.length + 1);
  assert.match(backend.writes[1][0], /^cache:test-server:echo:client=0:\|2:t1\|1:a:[0-9a-f]{64}$/);
});

Deno.test("tenant scope shares within a tenant; shared scope shares with everyone", async () => {
  const tenant = cacheMiddleware({ backend: new MapBackend(), scope: "tenant" });
  const handler = counter();
  await tenant(call({ client: { id: "a", tenant: "t1" } }).ctx, handler.next);
  await tenant(call({ client: { id: "b", tenant: "t1" } }).ctx, handler.next);
  await tenant(call({ client: { id: "a", tenant: "t2" } }).ctx, handler.next);
  await tenant(call({ client: { id: "c" } }).ctx, handler.next);
  await tenant(call().ctx, handler.next);
  assert.equal(handler.runs(), 3, "t1 shared; t2 separate; tenantless and anonymous callers share");
  const shared = cacheMiddleware({ backend: new MapBackend(), scope: "shared" });
  const other = counter();
  await shared(call({ client: { id: "a", tenant: "t1" } }).ctx, other.next);
  await shared(call({ client: { id: "z", tenant: "t9" } }).ctx, other.next);
  await shared(call().ctx, other.next);
  assert.equal(other.runs(), 1);
});

Deno.test("concurrent identical calls run the handler once and share its result or error", async () => {
  // A backend that stores nothing: only coalescing can spare the handler runs.
  const forgetful: CacheBackend = {
    get: () => Promise.resolve(undefined),
    set: () => Promise.resolve(),
    delete: () => Promise.resolve(),
    clear: () => Promise.resolve(),
  };
  const mw = cacheMiddleware({ backend: forgetful });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20)); // let every call reach the flight
  const gate = Promise.withResolvers<string>();
  let runs = 0;
  const calls = Array.from({ length: 3 }, () => mw(call().ctx, () => (runs++, gate.promise)));
  await settle();
  gate.resolve("once");
  assert.deepEqual(await Promise.all(calls), ["once", "once", "once"]);
  assert.equal(runs, 1);
  const failing = Promise.withResolvers<string>();
  const boom = new Error("upstream down");
  const failed = Array.from({ length: 2 }, () => mw(call().ctx, () => (runs++, failing.promise)));
  await settle();
  failing.reject(boom);
  for (const outcome of await Promise.allSettled(failed)) {
    assert.equal(outcome.status === "rejected" && outcome.reason, boom);
  }
  assert.equal(runs, 2);
  assert.equal(
    await mw(call().ctx, () => Promise.resolve("recovered")),
    "recovered",
    "the error was not kept",
  );
});

Deno.test("when the first caller is cancelled, a waiting caller computes the result itself", async () => {
  const mw = cacheMiddleware({ backend: new MapBackend() });
  const abort = new AbortController();
  const leader = Promise.withResolvers<string>();
  leader.promise.catch(() => {}); // rejected before the middleware reaches the handler
  const started = Promise.withResolvers<void>();
  const first = mw(call({ signal: abort.signal }).ctx, () => (started.resolve(), leader.promise));
  await started.promise;
  const second = mw(call().ctx, () => Promise.resolve("from the waiter"));
  await new Promise((resolve) => setTimeout(resolve, 20)); // the second caller now waits on the first
  abort.abort();
  leader.reject(new DOMException("cancelled", "AbortError"));
  await assert.rejects(first, /cancelled/);
  assert.equal(await second, "from the waiter");
});

Deno.test("the tool's guards run again on cache hits and for waiting callers", async () => {
  const admins: Guard = {
    name: "AdminsOnly",
    check: (ctx) => ctx.clientId === "admin",
    describeDenial: () => "Requires the admin role",
  };
  const mw = cacheMiddleware({ backend: new MapBackend(), scope: "shared" });
  const tool = { guards: [admins] };
  const gate = Promise.withResolvers<string>();
  const started = Promise.withResolvers<void>();
  const leader = mw(call({ tool, client: { id: "admin" } }).ctx, () => (started.resolve(), gate.promise));
  await started.promise;
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);
  const waiter = failure(mw(call({ tool, client: { id: "mallory" } }).ctx, () => Promise.resolve("never")));
  await new Promise((resolve) => setTimeout(resolve, 20)); // mallory now waits on the admin's call
  gate.resolve("secret");
  assert.equal(await leader, "secret");
  const hit = failure(mw(call({ tool, client: { id: "mallory" } }).ctx, () => Promise.resolve("x")));
  for (const error of [await waiter, await hit]) {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "ACCESS_DENIED");
    assert.equal(error.message, "Requires the admin role");
    assert.deepEqual(error.details, { guard: "AdminsOnly", tool: "echo" });
  }
  assert.equal(await mw(call({ tool, client: { id: "admin" } }).ctx, () => Promise.resolve("x")), "secret");
});

Deno.test("a failing backend degrades to uncached calls with a warning", async () => {
  const broken: CacheBackend = {
    get: () => Promise.reject(new Error("redis down")),
    set: () => Promise.reject(new Error("redis down")),
    delete: () => Promise.resolve(),
    clear: () => Promise.resolve(),
  };
  const mw = cacheMiddleware({ backend: broken });
  const { ctx, logs } = call();
  assert.equal(await mw(ctx, () => Promise.resolve("fine")), "fine");
  assert.deepEqual(logs.map((r) => r.message), ["cache read failed", "cache write failed"]);
});

Deno.test("the default backend is an in-memory cache closed by close(); bad options are refused", async () => {
  const mw = cacheMiddleware();
  assert.ok(mw.backend instanceof InMemoryCache);
  const handler = counter();
  await mw(call().ctx, handler.next);
  await mw(call().ctx, handler.next);
  assert.equal(handler.runs(), 1);
  mw.close();
  const given = new MapBackend();
  cacheMiddleware({ backend: given }).close();
  assert.equal(given.data.size, 0);
  assert.throws(() => cacheMiddleware({ ttl: 0 }), RangeError);
  assert.throws(() => cacheMiddleware({ scope: "global" as never }), /scope must be/);
  assert.throws(() => cacheMiddleware({ coalesce: false } as never), /unknown option 'coalesce'/);
});

Deno.test("a round that ends input_required is never cached, nor handed to a caller waiting on it", async () => {
  const backend = new MapBackend();
  const mw = cacheMiddleware({ backend });
  const signal = new InputRequiredSignal({ e1: { method: "elicitation/create" } }, { s1: "leader's answer" });
  const leader = Promise.withResolvers<string>();
  const started = Promise.withResolvers<void>();
  const first = mw(call().ctx, () => (started.resolve(), leader.promise));
  await started.promise;
  let waiterRan = 0;
  const second = mw(call().ctx, () => (waiterRan++, Promise.resolve("computed by the waiter")));
  await new Promise((resolve) => setTimeout(resolve, 20)); // the second caller now waits on the first
  leader.reject(signal);
  await assert.rejects(first, (e) => e === signal);
  assert.equal(await second, "computed by the waiter", "the waiter never sees the leader's signal");
  assert.equal(waiterRan, 1);
  assert.deepEqual(backend.writes.length, 1, "only the waiter's own result was stored");
  await assert.rejects(mw(call({ args: { q: "y" } }).ctx, () => Promise.reject(signal)), (e) => e === signal);
  assert.equal(backend.writes.length, 1, "the signal itself is never stored");
});

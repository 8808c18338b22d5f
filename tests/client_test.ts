/**
 * RuntimeClient against a real ControlServer (and tiny stand-in servers) on 127.0.0.1.
 */

import assert from "node:assert/strict";
import { type ControlApiOptions, ControlServer, RuntimeApiError, RuntimeClient } from "../src/api/mod.ts";
import { Logger, memorySink } from "../src/log.ts";
import { AgentRuntime } from "../src/runtime/mod.ts";

const TOKEN = "client-test-token-c41d";

interface Served extends AsyncDisposable {
  server: ControlServer;
  runtime: AgentRuntime;
  /** Resolves when the server's on_shutdown callback has run. */
  shutdownCalled: Promise<void>;
}

async function serve(options: ControlApiOptions = {}): Promise<Served> {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_client_" });
  const runtime = new AgentRuntime({ dataDir, logger: new Logger("t", { sink: memorySink() }) });
  let called!: () => void;
  const shutdownCalled = new Promise<void>((resolve) => called = resolve);
  const server = new ControlServer(runtime, {
    port: 0,
    authToken: TOKEN,
    env: () => undefined,
    onShutdown: () => called(),
    ...options,
  });
  await server.start();
  return {
    server,
    runtime,
    shutdownCalled,
    async [Symbol.asyncDispose]() {
      await server.stop();
      await runtime.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/** Resolves with `promise`, or rejects after `ms`; the timer never outlives the call. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error("timed out")), ms)
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A server on 127.0.0.1:0 with a custom handler; requests still pending are released on disposal. */
function standIn(handler: (request: Request, held: Promise<void>) => Response | Promise<Response>) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (r) => handler(r, held));
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    async [Symbol.asyncDispose]() {
      release();
      await server.shutdown();
    },
  };
}

async function apiError(promise: Promise<unknown>): Promise<RuntimeApiError> {
  const error = await promise.then(() => assert.fail("expected a RuntimeApiError"), (e: unknown) => e);
  assert.ok(error instanceof RuntimeApiError, `expected a RuntimeApiError, got ${String(error)}`);
  return error;
}

Deno.test("every client method reaches its route and answers its body", async () => {
  await using served = await serve();
  await using client = new RuntimeClient({ baseUrl: served.server.url, token: TOKEN });
  assert.deepEqual(await client.health(), { status: "healthy", process_count: 0 });
  assert.deepEqual(await client.listProcesses(), { processes: [], total: 0 });
  const deployed = await client.deploy("reporter", { journal: { backend: "memory" } });
  assert.equal(deployed.state, "created");
  assert.equal((await client.deploy("runner", {}, { start: true })).state, "running");
  assert.equal((await client.runtimeStatus()).process_count, 2);
  assert.equal((await client.getProcess("reporter")).process_id, deployed.process_id);
  assert.equal((await client.getMetrics("reporter")).state, "created");
  assert.deepEqual(await client.startProcess("reporter"), { name: "reporter", state: "running" });
  assert.deepEqual(await client.suspendProcess("reporter"), {
    name: "reporter",
    suspended: true,
    state: "suspended",
  });
  assert.deepEqual(await client.resumeProcess("reporter"), {
    name: "reporter",
    resumed: true,
    state: "running",
  });
  assert.deepEqual(await client.restartProcess("reporter"), { name: "reporter", state: "running" });
  assert.deepEqual(await client.stopProcess("reporter"), { name: "reporter", state: "stopped" });
  assert.deepEqual(await client.startAll(), { status: "started" });
  assert.equal(served.runtime.get("reporter")?.state, "running");
  assert.deepEqual(await client.stopAll(), { status: "stopped" });
  const journal = await client.getJournal("reporter", { limit: 2, entryType: "api_request" });
  assert.equal(journal.journal_enabled, true);
  assert.equal(journal.entries.length, 2);
  assert.ok(journal.entries.every((e) => e.entry_type === "api_request"));
  const document = await client.openApiDocument();
  assert.match(String(document.openapi), /^3\.1/);
  assert.deepEqual(await client.removeProcess("runner"), {});
  assert.equal(served.runtime.get("runner"), undefined);
  assert.deepEqual(await client.shutdown(), { status: "shutting_down" });
  await within(served.shutdownCalled, 2000);
});

Deno.test("token and authToken are aliases: one or the same value works, different values are a TypeError", async () => {
  await using served = await serve();
  const baseUrl = served.server.url;
  assert.throws(() => new RuntimeClient({ baseUrl, token: TOKEN, authToken: "other" }), TypeError);
  for (const options of [{ authToken: TOKEN }, { token: TOKEN, authToken: TOKEN }]) {
    await using client = new RuntimeClient({ baseUrl, ...options });
    assert.deepEqual(await client.listProcesses(), { processes: [], total: 0 });
  }
});

Deno.test("baseUrl works with or without /api/v1 and a trailing slash", async () => {
  await using served = await serve();
  const root = served.server.url;
  for (const baseUrl of [root, `${root}/`, `${root}/api/v1`, `${root}/api/v1/`]) {
    await using client = new RuntimeClient({ baseUrl, token: TOKEN });
    assert.equal(client.apiUrl, `${root}/api/v1`, baseUrl);
    assert.equal((await client.listProcesses()).total, 0, baseUrl);
  }
});

Deno.test("the default timeout is 30 seconds", () => {
  assert.equal(new RuntimeClient({ baseUrl: "http://127.0.0.1:9100" }).timeout, 30);
});

Deno.test("API errors raise RuntimeApiError with statusCode, code, errorMessage and errorId", async () => {
  await using served = await serve();
  await using client = new RuntimeClient({ baseUrl: served.server.url, token: TOKEN });
  const missing = await apiError(client.getProcess("ghost"));
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.code, "PROCESS_NOT_FOUND");
  assert.equal(typeof missing.errorMessage, "string");
  assert.equal(missing.errorId, null);
  await client.deploy("idle", {});
  const refused = await apiError(client.suspendProcess("idle"));
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.code, "SUSPEND_FAILED");
  assert.match(refused.errorId ?? "", /^err_[0-9a-f]{16}$/);
  const invalid = await apiError(client.deploy("bad", { concurrency: 0 }));
  assert.equal(invalid.code, "INVALID_CONFIG");
  assert.deepEqual(invalid.details.map((d) => d.field), ["config.concurrency"]);
  await using stranger = new RuntimeClient({ baseUrl: served.server.url, token: "not-the-token" });
  const unauthorized = await apiError(stranger.listProcesses());
  assert.equal(unauthorized.statusCode, 401);
  assert.equal(unauthorized.code, "UNAUTHORIZED");
});

Deno.test("a non-API error body raises RuntimeApiError with code null", async () => {
  await using proxy = standIn(() => new Response("upstream unavailable", { status: 502 }));
  await using client = new RuntimeClient({ baseUrl: proxy.url });
  const error = await apiError(client.health());
  assert.equal(error.statusCode, 502);
  assert.equal(error.code, null);
  assert.equal(error.errorMessage, "upstream unavailable");
  assert.equal(error.errorId, null);
});

Deno.test("a request that gets no answer within the timeout rejects with TIMEOUT naming the server", async () => {
  await using silent = standIn(async (_request, held) => {
    await held;
    return new Response("too late");
  });
  await using client = new RuntimeClient({ baseUrl: silent.url, timeout: 0.2 });
  const started = Date.now();
  const error = await apiError(client.health());
  assert.equal(error.code, "TIMEOUT");
  assert.equal(error.statusCode, 0);
  assert.equal(
    error.message,
    `no answer from ${new URL(silent.url).origin} within 0.2 s (the client's timeout): ` +
      "is agentry runtime start running there?",
  );
  assert.equal((error.cause as Error).name, "TimeoutError");
  assert.ok(Date.now() - started < 5000);
});

Deno.test("a server that is down is UNREACHABLE: connection refused at its URL, the fetch error kept as cause", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  await using client = new RuntimeClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
  const error = await apiError(client.health());
  assert.equal(error.code, "UNREACHABLE");
  assert.equal(error.statusCode, 0);
  assert.equal(
    error.message,
    `no answer from http://127.0.0.1:${port} (connection refused): is agentry runtime start running there?`,
  );
  assert.ok(error.cause instanceof TypeError);
  const stream = client.streamRuns("a");
  const streamError = await stream.next().then(() => assert.fail("expected no answer"), (e: unknown) => e);
  assert.ok(streamError instanceof RuntimeApiError && streamError.code === "UNREACHABLE");
});

Deno.test("a host name that does not resolve is UNREACHABLE saying so", async () => {
  // Deno's error for a failed lookup, as fetch raises it (no resolver is asked, so the test is offline).
  const lookupFails: typeof fetch = (input) => {
    const url = input instanceof Request ? input.url : String(input);
    const cause = new Error(
      `error sending request for url (${url}): client error (Connect): dns error: failed to lookup ` +
        "address information: Name or service not known",
    );
    return Promise.reject(new TypeError("fetch failed", { cause }));
  };
  await using client = new RuntimeClient({ baseUrl: "http://agentry-test.invalid:9100", fetch: lookupFails });
  const error = await apiError(client.health());
  assert.equal(error.code, "UNREACHABLE");
  assert.equal(
    error.message,
    "no answer from http://agentry-test.invalid:9100 (the host name does not resolve): " +
      "is agentry runtime start running there?",
  );
});

Deno.test("close() aborts a call in flight, and later calls reject", async () => {
  await using silent = standIn(async (_request, held) => {
    await held;
    return new Response("{}");
  });
  const client = new RuntimeClient({ baseUrl: silent.url, timeout: 30 });
  const pending = client.listProcesses();
  await client.close();
  await assert.rejects(pending);
  await assert.rejects(client.health(), TypeError);
});

Deno.test("await using closes the client at the end of the block", async () => {
  await using served = await serve();
  let escaped: RuntimeClient | undefined;
  {
    await using client = new RuntimeClient({ baseUrl: served.server.url, token: TOKEN });
    assert.equal((await client.health()).status, "healthy");
    escaped = client;
  }
  await assert.rejects(escaped.health(), TypeError);
});

Deno.test("getJournal sends limit (default 50) and type", async () => {
  await using served = await serve();
  const urls: URL[] = [];
  const spy: typeof fetch = (input, init) => {
    urls.push(new URL(input instanceof Request ? input.url : String(input)));
    return fetch(input, init);
  };
  await using client = new RuntimeClient({ baseUrl: served.server.url, token: TOKEN, fetch: spy });
  await client.deploy("j", { journal: { backend: "memory" } }, { start: true });
  const all = await client.getJournal("j");
  const typed = await client.getJournal("j", { limit: 1, entryType: "state_transition" });
  const [, first, second] = urls;
  assert.equal(first.searchParams.get("limit"), "50");
  assert.equal(first.searchParams.get("type"), null);
  assert.equal(second.searchParams.get("limit"), "1");
  assert.equal(second.searchParams.get("type"), "state_transition");
  assert.equal(all.entries.length, 3);
  assert.deepEqual(typed.entries.map((e) => [e.entry_type, e.data.to_state]), [[
    "state_transition",
    "running",
  ]]);
});

import assert from "node:assert/strict";
import { McpConnectError, McpConnections, type McpConnectionsOptions } from "./mod.ts";
import {
  collectGarbage,
  CountingProxy,
  LoopbackServer,
  sampleServer,
  testLogger,
  waitFor,
} from "./_test_servers.ts";

function options(extra: Partial<McpConnectionsOptions> = {}): McpConnectionsOptions {
  return { logger: testLogger().logger, connectTimeoutMs: 3_000, callTimeoutMs: 3_000, ...extra };
}

/** A TCP listener that accepts connections and never answers; disposing closes it and them. */
function muteServer(): { port: number } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async [Symbol.asyncDispose]() {
      listener.close();
      await accepting;
      for (const conn of held) conn.close();
    },
  };
}

/**
 * Our servers speak both revisions: each test runs on 2026-07-28 (what `auto` negotiates with them) and
 * on a 2025-11-25 session (`protocol_version` pinned), where the server pushes on a GET stream.
 */
const REVISIONS = [
  { revision: "2026-07-28", wanted: "auto" },
  { revision: "2025-11-25", wanted: "2025-11-25" },
] as const;

for (const { revision, wanted } of REVISIONS) {
  const modern = revision === "2026-07-28";
  /** A server entry for `url` asking for this run's revision. */
  const entry = (url: string) => ({ url, protocol_version: wanted });

  Deno.test(`connect lists the tools under prefixed names and calls them over streamable HTTP (${revision})`, async () => {
    await using served = await new LoopbackServer(sampleServer()).start();
    await using mcp = await McpConnections.connect({ alpha: entry(`${served.base}/mcp`) }, options());
    assert.deepEqual(mcp.tools().map((t) => [t.name, t.server, t.tool]), [
      ["alpha__echo", "alpha", "echo"],
      ["alpha__fail", "alpha", "fail"],
      ["alpha__slow", "alpha", "slow"],
    ]);
    const echo = mcp.tools()[0];
    assert.equal(echo.description, "Echo the text");
    assert.deepEqual(Object.keys(echo.inputSchema.properties as object), ["text"]);
    assert.deepEqual(await mcp.call("alpha__echo", { text: "hi" }), { content: "hi", isError: false });
    assert.deepEqual(mcp.status(), {
      alpha: {
        connected: true,
        tools: 3,
        transport: "streamable-http",
        protocol_version: revision,
        reconnects: 0,
      },
    });
  });

  Deno.test(`an isError result, an unknown tool and bad arguments come back as error outcomes (${revision})`, async () => {
    await using served = await new LoopbackServer(sampleServer()).start();
    await using mcp = await McpConnections.connect({ alpha: entry(`${served.base}/mcp`) }, options());
    assert.deepEqual(await mcp.call("alpha__fail", {}), { content: "the tool broke", isError: true });
    assert.deepEqual(await mcp.call("alpha__nope", {}), {
      content: 'unknown tool "alpha__nope"',
      isError: true,
    });
    const bad = await mcp.call("alpha__echo", { text: 42 });
    assert.equal(bad.isError, true);
    assert.ok(bad.content.length > 0 && bad.content.length <= 1_100, bad.content);
  });

  Deno.test(`a call that outlasts callTimeoutMs resolves as a timeout and the server is told to cancel (${revision})`, async () => {
    const events: string[] = [];
    await using served = await new LoopbackServer(sampleServer("sample", events)).start();
    await using mcp = await McpConnections.connect(
      { alpha: entry(`${served.base}/mcp`) },
      options({ callTimeoutMs: 200 }),
    );
    const started = Date.now();
    const outcome = await mcp.call("alpha__slow", { ms: 10_000 });
    assert.ok(Date.now() - started < 2_000);
    assert.deepEqual(outcome, {
      content: "tool slow on server alpha did not answer within 200 ms",
      isError: true,
    });
    assert.deepEqual(await mcp.call("alpha__echo", { text: "still up" }), {
      content: "still up",
      isError: false,
    });
    // 2025: the client sends notifications/cancelled. 2026-07-28: it aborts the call's HTTP request, which
    // our server does not always notice before the tool ends (reported; see the slice report).
    if (!modern) await waitFor(() => events.includes("slow cancelled"), "the server to cancel the slow call");
  });

  Deno.test(`aborting the call's signal rejects the call with the abort reason (${revision})`, async () => {
    const events: string[] = [];
    await using served = await new LoopbackServer(sampleServer("sample", events)).start();
    await using mcp = await McpConnections.connect({ alpha: entry(`${served.base}/mcp`) }, options());
    const controller = new AbortController();
    const call = mcp.call("alpha__slow", { ms: 10_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop now")), 50);
    await assert.rejects(call, /stop now/);
    await assert.rejects(mcp.call("alpha__echo", { text: "x" }, { signal: controller.signal }), /stop now/);
    assert.equal((await mcp.call("alpha__echo", { text: "after" })).content, "after");
    // 2025: the client sends notifications/cancelled. 2026-07-28: it aborts the call's HTTP request, which
    // our server does not always notice before the tool ends (reported; see the slice report).
    if (!modern) await waitFor(() => events.includes("slow cancelled"), "the server to cancel the slow call");
  });

  Deno.test(`two servers with the same tool names keep them apart by server prefix (${revision})`, async () => {
    await using one = await new LoopbackServer(sampleServer("one")).start();
    const other = sampleServer("two").tool("whoami", { description: "Which server" }, () => "two");
    await using two = await new LoopbackServer(other).start();
    await using mcp = await McpConnections.connect(
      { b: entry(`${two.base}/mcp`), a: entry(`${one.base}/mcp`) },
      options(),
    );
    assert.deepEqual(mcp.tools().map((t) => t.name), [
      "a__echo",
      "a__fail",
      "a__slow",
      "b__echo",
      "b__fail",
      "b__slow",
      "b__whoami",
    ]);
    assert.equal((await mcp.call("b__whoami", {})).content, "two");
    assert.equal((await mcp.call("a__whoami", {})).isError, true);
    assert.ok(one.requests.some((r) => r.method === "POST") && two.requests.some((r) => r.method === "POST"));
  });

  Deno.test(`a tool registered while serving is picked up through tools/list_changed (${revision})`, async () => {
    const server = sampleServer();
    await using served = await new LoopbackServer(server).start();
    let changes = 0;
    await using mcp = await McpConnections.connect(
      { alpha: entry(`${served.base}/mcp`) },
      options({ onToolsChanged: () => void changes++ }),
    );
    await waitFor(() => served.openStreams > 0, modern ? "the listen stream" : "the client's GET stream");
    server.tool("late", { description: "Added while serving" }, () => "late answer");
    await waitFor(() => changes > 0, "onToolsChanged");
    assert.ok(mcp.tools().some((t) => t.name === "alpha__late"));
    assert.deepEqual(await mcp.call("alpha__late", {}), { content: "late answer", isError: false });
  });

  Deno.test(`a server that drops answers 'reconnecting' and works again once it is back (${revision})`, async () => {
    const served = await new LoopbackServer(sampleServer()).start();
    try {
      await using mcp = await McpConnections.connect(
        { alpha: entry(`${served.base}/mcp`) },
        options({ reconnect: { baseDelayMs: 20, maxDelayMs: 100 } }),
      );
      await served.stop();
      assert.deepEqual(await mcp.call("alpha__echo", { text: "x" }), {
        content: "server alpha is reconnecting",
        isError: true,
      });
      assert.equal(mcp.status().alpha.connected, false);
      assert.equal(mcp.tools().length, 3, "tools stay offered while reconnecting");
      assert.deepEqual(await mcp.call("alpha__echo", { text: "x" }), {
        content: "server alpha is reconnecting",
        isError: true,
      });
      await served.start();
      await waitFor(() => mcp.status().alpha.connected, "the reconnect");
      assert.deepEqual(await mcp.call("alpha__echo", { text: "back" }), { content: "back", isError: false });
      assert.equal(mcp.status().alpha.reconnects, 1);
    } finally {
      await served.stop();
    }
  });

  Deno.test(`a server that drops is noticed and reconnected without any call (${revision})`, async () => {
    const served = await new LoopbackServer(sampleServer()).start();
    try {
      const { logger, records } = testLogger();
      await using mcp = await McpConnections.connect(
        { alpha: entry(`${served.base}/mcp`) },
        { logger, reconnect: { baseDelayMs: 20, maxDelayMs: 100 } },
      );
      await waitFor(() => served.openStreams === 1, modern ? "the listen stream" : "the GET stream");
      await served.stop();
      await waitFor(() => !mcp.status().alpha.connected, "the drop to be noticed", 5_000);
      assert.ok(
        records.some((r) => r.message === "MCP server dropped; reconnecting" && r.fields.server === "alpha"),
      );
      await served.start();
      await waitFor(() => mcp.status().alpha.connected, "the reconnect", 5_000);
      assert.equal((await mcp.call("alpha__echo", { text: "back" })).content, "back");
    } finally {
      await served.stop();
    }
  });

  Deno.test(`a server that cannot be connected fails connect with McpConnectError and leaves nothing open (${revision})`, async () => {
    await using good = await new LoopbackServer(sampleServer()).start();
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const deadPort = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const error = await McpConnections.connect(
      { good: entry(`${good.base}/mcp`), zdead: entry(`http://127.0.0.1:${deadPort}/mcp`) },
      options(),
    ).catch((e) => e);
    assert.ok(error instanceof McpConnectError);
    assert.equal(error.server, "zdead");
    assert.equal(error.message, "MCP server zdead could not be connected: the server could not be reached");
    await waitFor(() => good.openStreams === 0 && good.sessions === 0, "the good server's session to close");
  });

  Deno.test(`connect gives up after connectTimeoutMs on a server that never answers (${revision})`, async () => {
    await using mute = muteServer();
    const started = Date.now();
    const error = await McpConnections.connect(
      { mute: entry(`http://127.0.0.1:${mute.port}/mcp`) },
      options({ connectTimeoutMs: 300 }),
    ).catch((e) => e);
    assert.ok(Date.now() - started < 2_000);
    assert.equal(error.message, "MCP server mute could not be connected: no answer within 300 ms");
  });

  Deno.test(`aborting the signal while a server hangs rejects the connect at once (${revision})`, async () => {
    await using mute = muteServer();
    await using served = await new LoopbackServer(sampleServer()).start();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("process stopping")), 100);
    const started = Date.now();
    await assert.rejects(
      McpConnections.connect(
        { good: entry(`${served.base}/mcp`), mute: entry(`http://127.0.0.1:${mute.port}/mcp`) },
        options({ connectTimeoutMs: 10_000, signal: controller.signal }),
      ),
      /process stopping/,
    );
    assert.ok(Date.now() - started < 3_000, `${Date.now() - started} ms`);
    await waitFor(
      () => served.openStreams === 0 && served.sessions === 0,
      "the good server's session to close",
    );
  });

  Deno.test(`headers, bearer_token and api_key reach the server and never the error message (${revision})`, async () => {
    await using served = await new LoopbackServer(sampleServer()).start();
    const config = {
      ...entry(`${served.base}/mcp`),
      headers: { "X-Tenant": "t-1" },
      bearer_token: "bearer-secret-1",
      api_key: "key-secret-2",
    };
    await using mcp = await McpConnections.connect({ alpha: config }, options());
    await mcp.call("alpha__echo", { text: "x" });
    await waitFor(() => served.openStreams === 1, modern ? "the listen stream" : "the GET stream");
    for (const request of served.requests) {
      assert.equal(request.headers["authorization"], "Bearer bearer-secret-1", request.method);
      assert.equal(request.headers["x-api-key"], "key-secret-2");
      assert.equal(request.headers["x-tenant"], "t-1");
    }

    const refusing = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response("no", { status: 401 }),
    );
    try {
      const { logger, records } = testLogger();
      const error = await McpConnections.connect(
        { locked: { ...config, url: `http://127.0.0.1:${refusing.addr.port}/mcp` } },
        { logger },
      ).catch((e) => e);
      assert.equal(error.message, "MCP server locked could not be connected: the server answered HTTP 401");
      for (const text of [error.message, JSON.stringify(records)]) {
        assert.ok(!text.includes("secret"), text);
      }
    } finally {
      await refusing.shutdown();
    }
  });

  Deno.test(`aborting the connect signal closes what was opened and rejects (${revision})`, async () => {
    await using served = await new LoopbackServer(sampleServer()).start();
    const controller = new AbortController();
    controller.abort(new Error("process stopping"));
    await assert.rejects(
      McpConnections.connect({ alpha: entry(`${served.base}/mcp`) }, options({ signal: controller.signal })),
      /process stopping/,
    );
    const later = new AbortController();
    const mcp = await McpConnections.connect(
      { alpha: entry(`${served.base}/mcp`) },
      options({ signal: later.signal }),
    );
    later.abort();
    await mcp.close();
    assert.equal((await mcp.call("alpha__echo", { text: "x" })).isError, true);
    await waitFor(() => served.openStreams === 0, "streams to close");
  });

  Deno.test(`close leaves no stream and no TCP connection behind, even after the responses were collected (${revision})`, async () => {
    await using served = await new LoopbackServer(sampleServer()).start();
    await using proxy = new CountingProxy(served.port);
    const mcp = await McpConnections.connect(
      { alpha: entry(`http://127.0.0.1:${proxy.port}/mcp`) },
      options(),
    );
    await mcp.call("alpha__echo", { text: "x" });
    await waitFor(() => served.openStreams === 1, modern ? "the listen stream" : "the GET stream");
    assert.ok(proxy.open > 0);
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await mcp.close();
    await mcp.close();
    await waitFor(
      () => served.openStreams === 0 && proxy.open === 0,
      "every stream and connection to close",
      2_000,
    );
    assert.equal(served.sessions, 0, "the session was ended with DELETE");
  });
}

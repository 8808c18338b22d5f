import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Logger, memorySink } from "../../log.ts";
import { echoServer, INITIALIZE } from "./_test_serve.ts";
import { run, serveStdio } from "./run.ts";
import { internalsOf } from "../tool_server.ts";

Deno.test("run serves HTTP after the startup hooks and stops on abort, running the shutdown hooks", async () => {
  const sink = memorySink();
  const events: string[] = [];
  const server = echoServer({ logger: new Logger("agentry.mcp", { sink }) })
    .onStartup(() => void events.push("startup"))
    .onShutdown(() => void events.push("shutdown"));
  const stop = new AbortController();
  const served = await run(server, {
    transport: "http",
    port: 0,
    signal: stop.signal,
    allowedHosts: ["mcp.test"],
  });
  assert.match(served.url!, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.deepEqual(events, ["startup"]);
  const policy = sink.records.find((r) => r.message === "Host/Origin validation");
  assert.ok((policy?.fields.allowedHosts as string[]).includes("mcp.test"));
  const client = new Client({ name: "run-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url!)));
  const result = await client.callTool({ name: "echo", arguments: { text: "ran" } });
  assert.deepEqual(result.content, [{ type: "text", text: "ran" }]);
  stop.abort();
  await served.finished;
  await client.close();
  assert.deepEqual(events, ["startup", "shutdown"]);
  await assert.rejects(fetch(served.url!, { method: "POST" }));
});

Deno.test("run with the sse transport reports the /sse endpoint and close() is idempotent", async () => {
  const server = echoServer({ logger: new Logger("agentry.mcp", { sink: memorySink() }) });
  const served = await run(server, { transport: "sse", port: 0, onListen: () => undefined });
  assert.match(served.url!, /\/sse$/);
  const health = await fetch(served.url!.replace("/sse", "/health"));
  assert.equal((await health.json()).status, "alive");
  await Promise.all([served.close(), served.close()]);
  await served.finished;
});

Deno.test("run refuses unknown options and bad ports before starting anything", async () => {
  let started = false;
  const server = echoServer().onStartup(() => void (started = true));
  await assert.rejects(run(server, { transport: "http", prot: 1 } as never), /unknown option 'prot'/);
  await assert.rejects(run(server, { transport: "http", port: 70000 }), /port/);
  await assert.rejects(
    run(server, { transport: "http", port: 0, cors: { allowOrigins: ["*"], allowCredentials: true } }),
  );
  assert.equal(started, false);
});

function lines(stream: ReadableStream<Uint8Array>): () => Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return async () => {
    while (!buffer.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) return buffer === "" ? "<end>" : buffer;
      buffer += value;
    }
    const index = buffer.indexOf("\n");
    const line = buffer.slice(0, index);
    buffer = buffer.slice(index + 1);
    return line;
  };
}

Deno.test("serveStdio speaks JSON-RPC lines and runs the shutdown hooks when stdin ends", async () => {
  const events: string[] = [];
  const server = echoServer()
    .onStartup(() => void events.push("startup"))
    .onShutdown(() => void events.push("shutdown"));
  const toServer = new TransformStream<Uint8Array, Uint8Array>();
  const fromServer = new TransformStream<Uint8Array, Uint8Array>();
  const handle = await serveStdio(server, { stdin: toServer.readable, stdout: fromServer.writable });
  assert.deepEqual(events, ["startup"]);
  const writer = toServer.writable.getWriter();
  const send = (message: unknown) => writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  const next = lines(fromServer.readable);
  await send(INITIALIZE);
  assert.equal(JSON.parse(await next()).result.serverInfo.name, "echo-server");
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "piped" } },
  });
  assert.deepEqual(JSON.parse(await next()), {
    jsonrpc: "2.0",
    id: 2,
    result: { content: [{ type: "text", text: "piped" }] },
  });
  assert.equal(internalsOf(server).registry.sessionCount, 1);
  await writer.close();
  await handle.closed;
  assert.deepEqual(events, ["startup", "shutdown"]);
  assert.equal(internalsOf(server).registry.sessionCount, 0);
  assert.equal(await next(), "<end>", "stdout carries nothing but protocol and is closed");
});

/**
 * Black-box tests of the control API over a real socket (127.0.0.1, OS-chosen port).
 */

import assert from "node:assert/strict";
import { type ControlApiOptions, ControlServer } from "../src/api/mod.ts";
import { Logger, type LogRecord, memorySink } from "../src/log.ts";
import { AgentRuntime } from "../src/runtime/mod.ts";

const TOKEN = "socket-test-token-5b2e";

interface Served extends AsyncDisposable {
  server: ControlServer;
  runtime: AgentRuntime;
  records: LogRecord[];
}

/** A started server on 127.0.0.1:0 over a runtime in a temporary data dir; all removed on disposal. */
async function serve(options: ControlApiOptions = {}): Promise<Served> {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_socket_" });
  const sink = memorySink();
  const runtime = new AgentRuntime({ dataDir, logger: new Logger("t", { sink }) });
  const server = new ControlServer(runtime, { port: 0, env: () => undefined, ...options });
  await server.start();
  return {
    server,
    runtime,
    records: sink.records,
    async [Symbol.asyncDispose]() {
      await server.stop();
      await runtime.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/** Sends raw HTTP/1.1 text and answers the status and body of the reply. */
async function raw(port: number, text: string): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(new TextEncoder().encode(text));
    let reply = "";
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(16 * 1024);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) break;
      reply += decoder.decode(buffer.subarray(0, n), { stream: true });
    }
    const [head, ...rest] = reply.split("\r\n\r\n");
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    return { status, body: rest.join("\r\n\r\n") };
  } finally {
    conn.close();
  }
}

Deno.test("a server on port 0 exposes the OS-chosen port after start and serves health", async () => {
  await using served = await serve();
  const { server } = served;
  assert.equal(server.listening, true);
  assert.ok(server.port > 0 && server.port < 65536);
  assert.equal(server.url, `http://127.0.0.1:${server.port}`);
  const answer = await fetch(`${server.url}/api/v1/health`);
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { status: "healthy", process_count: 0 });
});

Deno.test("a raw request with Host evil.example is answered 421; a loopback Host passes", async () => {
  await using served = await serve();
  const port = served.server.port;
  const refused = await raw(
    port,
    "GET /api/v1/health HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
  );
  assert.equal(refused.status, 421);
  assert.match(refused.body, /"code":"MISDIRECTED_REQUEST"/);
  const passed = await raw(
    port,
    `GET /api/v1/health HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`,
  );
  assert.equal(passed.status, 200);
  assert.match(passed.body, /"status":"healthy"/);
});

Deno.test("a cross-site Origin is refused with 403 over the socket; a loopback one passes", async () => {
  await using served = await serve();
  const url = `${served.server.url}/api/v1/processes`;
  const refused = await fetch(url, { headers: { origin: "https://evil.example" } });
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).error.code, "CROSS_ORIGIN_REFUSED");
  const local = await fetch(url, { headers: { origin: "http://localhost:3000" } });
  assert.equal(local.status, 200);
  await local.body?.cancel();
});

Deno.test("a 2 MiB chunked POST without Content-Length is refused with 413", async () => {
  await using served = await serve();
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 2 * 1024 * 1024) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const answer = await fetch(`${served.server.url}/api/v1/processes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  assert.equal(answer.status, 413);
  assert.equal((await answer.json()).error.code, "PAYLOAD_TOO_LARGE");
  assert.equal(served.runtime.size, 0);
});

Deno.test("the token is enforced over the socket and the client address is logged", async () => {
  await using served = await serve({ authToken: TOKEN });
  const url = `${served.server.url}/api/v1/runtime/stop-all`;
  const refused = await fetch(url, { method: "POST" });
  assert.equal(refused.status, 401);
  await refused.body?.cancel();
  const accepted = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(accepted.status, 200);
  assert.deepEqual(await accepted.json(), { status: "stopped" });
  const line = served.records.find((r) => r.message === "request");
  assert.equal(line?.fields.client, "127.0.0.1");
  assert.equal(line?.fields.status, 200);
});

Deno.test("stop() closes the server: a later request fails", async () => {
  await using served = await serve();
  const url = `${served.server.url}/api/v1/health`;
  await (await fetch(url)).body?.cancel();
  await served.server.stop();
  assert.equal(served.server.listening, false);
  await served.server.finished;
  await assert.rejects(fetch(url), TypeError);
});

Deno.test("await using stops the server at the end of the block", async () => {
  let url = "";
  {
    await using served = await serve();
    url = `${served.server.url}/api/v1/health`;
    assert.equal((await fetch(url)).status, 200);
  }
  await assert.rejects(fetch(url), TypeError);
});

Deno.test("binding 0.0.0.0 without a token is refused at construction", () => {
  const runtime = new AgentRuntime({ logger: new Logger("t", { sink: memorySink() }) });
  assert.throws(
    () => new ControlServer(runtime, { host: "0.0.0.0", port: 0, env: () => undefined }),
    RangeError,
  );
  const withToken = new ControlServer(runtime, { host: "0.0.0.0", port: 0, authToken: TOKEN });
  assert.equal(withToken.listening, false);
});

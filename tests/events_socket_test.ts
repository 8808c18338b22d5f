/**
 * The runtime event stream over a real socket (127.0.0.1, OS-chosen port): the typed client reads the
 * events of a deploy, start, stop and removal in order; same-origin pages call the API with the token.
 */

import assert from "node:assert/strict";
import { ControlServer, RuntimeClient } from "../src/api/mod.ts";
import type { RuntimeEvent } from "../src/api/client.ts";
import { Logger, memorySink } from "../src/log.ts";
import { AgentRuntime } from "../src/runtime/mod.ts";
import { testApi, TOKEN } from "./_api_harness.ts";
import { until } from "./_agent_harness.ts";

const SOCKET_TOKEN = "events-socket-token-81c4";

async function serve() {
  const dataDir = await Deno.makeTempDir({ prefix: "agentry_events_" });
  const runtime = new AgentRuntime({ dataDir, logger: new Logger("t", { sink: memorySink() }) });
  const server = new ControlServer(runtime, { port: 0, authToken: SOCKET_TOKEN, env: () => undefined });
  await server.start();
  const client = new RuntimeClient({ baseUrl: server.url, token: SOCKET_TOKEN, timeout: 10 });
  return {
    server,
    runtime,
    client,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.stop();
      await runtime.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("client.events reads a deploy, start, stop and removal in order over a socket", async () => {
  await using served = await serve();
  const { client, runtime } = served;
  const controller = new AbortController();
  const seen: RuntimeEvent[] = [];
  const reading = (async () => {
    for await (const event of client.events({ processes: ["alpha"], signal: controller.signal })) {
      if (event.type === "reset") throw new Error("no reset expected");
      seen.push(event);
      if (event.type === "process.removed") return;
    }
  })();
  await until("the stream to open", () => runtime.eventLog.subscriberCount === 1);
  await client.deploy("beta", { instructions: "Not watched." });
  await client.deploy("alpha", { instructions: "Watched." });
  await client.startProcess("alpha");
  await client.stopProcess("alpha");
  await client.removeProcess("alpha");
  await reading;
  assert.deepEqual(
    seen.map((e) => e.type === "process.state" ? `${e.data.previous}>${e.data.state}` : e.type),
    [
      "process.deployed",
      "created>starting",
      "starting>running",
      "running>stopping",
      "stopping>stopped",
      "process.removed",
    ],
  );
  assert.ok(seen.every((e) => e.data.process === "alpha"));
  assert.ok(seen.every((e, i) => i === 0 || e.id > seen[i - 1].id), "ids increase");
  await until("the reader is let go", () => runtime.eventLog.subscriberCount === 0);

  const replayed: string[] = [];
  for await (const event of client.events({ since: seen[3].id, types: ["process.state"] })) {
    replayed.push(`${event.id}:${event.type}`);
    if (replayed.length === 1) break;
  }
  assert.deepEqual(replayed, [`${seen[4].id}:process.state`]);
  controller.abort();
});

Deno.test("the event stream ends when the server stops, without waiting for the grace period", async () => {
  await using served = await serve();
  const { client, server, runtime } = served;
  const events = client.events()[Symbol.asyncIterator]();
  const first = events.next();
  await until("the stream to open", () => runtime.eventLog.subscriberCount === 1);
  const began = Date.now();
  await server.stop();
  assert.equal((await first).done, true);
  assert.ok(Date.now() - began < 2000, "the stream closed before the 5 s grace");
});

Deno.test("client.events rejects with the API's error for a bad filter", async () => {
  await using served = await serve();
  const events = served.client.events({ types: ["run.exploded" as "run.started"] });
  await assert.rejects(events.next(), (error: Error & { code?: string; statusCode?: number }) => {
    assert.equal(error.statusCode, 422);
    assert.equal(error.code, "INVALID_FIELD");
    return true;
  });
});

Deno.test("a page served on the API's own origin calls it with the token on a loopback bind", async () => {
  await using served = await serve();
  const url = served.server.url;
  const answer = await fetch(`${url}/api/v1/processes`, {
    headers: { origin: url, authorization: `Bearer ${SOCKET_TOKEN}` },
  });
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { processes: [], total: 0 });
  const refused = await fetch(`${url}/api/v1/processes`, { headers: { origin: url } });
  assert.equal(refused.status, 401, "the token is still required");
  await refused.body?.cancel();
});

Deno.test("a page served on the API's own origin calls it with the token on a non-loopback bind", async () => {
  await using api = await testApi({ host: "0.0.0.0", port: 9100 });
  const call = (headers: Record<string, string>) =>
    api.app.fetch(
      new Request("http://agents.example.net:9100/api/v1/processes", {
        headers: { host: "agents.example.net:9100", origin: "http://agents.example.net:9100", ...headers },
      }),
      { remoteAddr: "192.0.2.7" },
    );
  const answer = await call({ authorization: `Bearer ${TOKEN}` });
  assert.equal(answer.status, 200);
  assert.deepEqual(await answer.json(), { processes: [], total: 0 });
  const refused = await call({});
  assert.equal(refused.status, 401);
  await refused.body?.cancel();
});

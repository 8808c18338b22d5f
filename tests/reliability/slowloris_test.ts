/**
 * Slowloris: 40 connections that trickle a request head byte by byte are closed once the head timeout
 * passes, on every server the binary runs (control API, webhook trigger, `agentry serve` MCP HTTP),
 * while a normal client is answered meanwhile.
 */

import assert from "node:assert/strict";
import { AgentRuntime, ControlServer } from "../../mod.ts";
import { createToolServer, run } from "../../src/mcp/mod.ts";
import { WebhookTrigger } from "../../src/triggers/mod.ts";
import { RunningCli, tempDir } from "../_cli_harness.ts";

const CONNECTIONS = 40;
const HEAD_TIMEOUT_MS = 1_000;
/** Closing is checked a few times per timeout; allow for it and for a loaded machine. */
const MARGIN_MS = 1_500;
const HEAD = "POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + "s".repeat(4096);

interface Trickle {
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfter: Promise<number>;
  /** What the server wrote before closing (a 408 answer, or nothing). */
  answer: Promise<string>;
  stop(): void;
}

/** Connects and writes `HEAD` one byte every 100 ms until the server closes the connection. */
async function trickle(port: number): Promise<Trickle> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const started = performance.now();
  let stopped = false;
  const received: string[] = [];
  const reading = (async () => {
    const buffer = new Uint8Array(1024);
    try {
      for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
        received.push(new TextDecoder().decode(buffer.subarray(0, n)));
      }
    } catch {
      // reset by the server
    }
    return performance.now() - started;
  })();
  const writing = (async () => {
    for (let i = 0; i < HEAD.length && !stopped; i++) {
      try {
        await conn.write(new TextEncoder().encode(HEAD[i]));
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const closedAfter = reading.then(async (ms) => {
    stopped = true;
    await writing;
    try {
      conn.close();
    } catch {
      // closed by stop()
    }
    return ms;
  });
  return {
    closedAfter,
    answer: closedAfter.then(() => received.join("")),
    stop() {
      stopped = true;
      try {
        conn.close();
      } catch {
        // already closed
      }
    },
  };
}

/** Opens the trickling connections, checks a normal request meanwhile, then that all were closed in time. */
async function assertSlowlorisClosed(
  port: number,
  options: { normal: () => Promise<void>; timeoutMs: number },
): Promise<void> {
  const trickles = await Promise.all(Array.from({ length: CONNECTIONS }, () => trickle(port)));
  const limitMs = options.timeoutMs + MARGIN_MS;
  const guard = setTimeout(() => trickles.forEach((t) => t.stop()), limitMs + 10_000);
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    await options.normal();
    assert.ok(performance.now() - started < 2_000, "a normal client is answered while the slow ones hang on");
    const closed = await Promise.all(trickles.map((t) => t.closedAfter));
    for (const ms of closed) {
      assert.ok(ms < limitMs, `a slow connection closed after ${Math.round(ms)} ms`);
      assert.ok(
        ms >= options.timeoutMs * 0.9,
        `closed by the head timeout, not before (${Math.round(ms)} ms)`,
      );
    }
    const answers = await Promise.all(trickles.map((t) => t.answer));
    for (const answer of answers) assert.match(answer, /^(HTTP\/1\.1 408 |$)/);
  } finally {
    clearTimeout(guard);
    trickles.forEach((t) => t.stop());
  }
}

Deno.test("the control API closes connections whose request head never completes", async () => {
  const runtime = new AgentRuntime();
  await using server = new ControlServer(runtime, { port: 0, headTimeoutMs: HEAD_TIMEOUT_MS });
  await server.start();
  await assertSlowlorisClosed(server.port, {
    timeoutMs: HEAD_TIMEOUT_MS,
    normal: async () => {
      const answer = await fetch(`${server.url}/api/v1/health`);
      assert.equal(answer.status, 200);
      await answer.body?.cancel();
    },
  });
  await server.stop();
  await runtime.close();
});

Deno.test("a webhook trigger closes connections whose request head never completes", async () => {
  const trigger = new WebhookTrigger({
    path: "/hook",
    port: 0,
    host: "127.0.0.1",
    headTimeoutMs: HEAD_TIMEOUT_MS,
  });
  await trigger.start();
  try {
    await assertSlowlorisClosed(trigger.port, {
      timeoutMs: HEAD_TIMEOUT_MS,
      normal: async () => {
        const answer = await fetch(`${trigger.url}/hook`, { method: "POST", body: '{"a":1}' });
        assert.equal(answer.status, 202);
        await answer.body?.cancel();
      },
    });
  } finally {
    await trigger.stop();
  }
});

Deno.test("an MCP HTTP server closes connections whose request head never completes", async () => {
  const server = createToolServer({ name: "slowloris" });
  const served = await run(server, {
    transport: "http",
    port: 0,
    headTimeoutMs: HEAD_TIMEOUT_MS,
    onListen: () => {},
  });
  try {
    const port = Number(new URL(served.url!).port);
    await assertSlowlorisClosed(port, {
      timeoutMs: HEAD_TIMEOUT_MS,
      normal: async () => {
        const answer = await fetch(served.url!, { method: "GET", headers: { accept: "text/event-stream" } });
        assert.ok(answer.status < 500, `answered ${answer.status}`);
        await answer.body?.cancel();
      },
    });
  } finally {
    await served.close();
  }
});

Deno.test({
  name: "agentry runtime start --head-timeout closes slow request heads on a loopback host",
  async fn() {
    await using dir = await tempDir();
    const args = ["runtime", "start", "--port", "0", "--json", "--data-dir", dir.path, "--head-timeout", "3"];
    await using cli = new RunningCli(args);
    const { url } = await cli.listening();
    const port = Number(new URL(url).port);
    await assertSlowlorisClosed(port, {
      timeoutMs: 3_000,
      normal: async () => {
        const answer = await fetch(`${url}/api/v1/health`);
        assert.equal(answer.status, 200);
        await answer.body?.cancel();
      },
    });
  },
});

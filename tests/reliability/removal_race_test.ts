/**
 * Issue 14 item 2, replayed against the real binary: "a removed process keeps running". A process with a
 * webhook trigger has a run in flight against a slow model; a stop, then a restart or a start queued
 * behind it, then a DELETE. Before the fix the queued operation ran after the removal: DELETE answered 204,
 * GET 404, yet the webhook still answered 202 and held its port, so a redeploy failed with AddrInUse.
 * Now removal wins: the queued operation is refused (404 PROCESS_NOT_FOUND), the port is closed and a
 * redeploy of the same name on the same port runs. 20 rounds.
 *
 * @module
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { join } from "node:path";
import type { ProcessConfigInput } from "../../src/api/client.ts";
import { startModelServer } from "../../src/models/testing/mod.ts";
import { createToolServer, toFetchHandler } from "../../src/mcp/mod.ts";
import { fireWebhook, until } from "../_agent_harness.ts";
import { tempDir } from "../_cli_harness.ts";
import { freePort } from "../_ports.ts";
import { runtimeOn } from "./_runtime_on.ts";

const ROUNDS = 20;

/** Whether something accepts connections on the port. */
async function listening(port: number): Promise<boolean> {
  try {
    const connection = await Deno.connect({ hostname: "127.0.0.1", port });
    connection.close();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.ConnectionRefused) return false;
    throw error;
  }
}

/** How long the MCP server holds a session's DELETE: the runtime waits for it (up to 1 s) when it stops. */
const SLOW_CLOSE_MS = 300;

/** An MCP server (one `ping` tool) that ends sessions slowly, so each stop of the process takes a while. */
async function startSlowClosingMcp(): Promise<AsyncDisposable & { url: string; closes: () => number }> {
  const server = createToolServer({ name: "slow" });
  server.tool("ping", { description: "Answers pong", input: z.object({}) }, () => "pong");
  await server.startup();
  const handler = toFetchHandler(server);
  let closes = 0;
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request, info) => {
    if (request.method === "DELETE") {
      closes++;
      await new Promise((resolve) => setTimeout(resolve, SLOW_CLOSE_MS));
    }
    return handler(request, info);
  });
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    closes: () => closes,
    async [Symbol.asyncDispose]() {
      await http.shutdown();
      await server.shutdown();
    },
  };
}

Deno.test("DELETE wins over a start or restart queued behind a slow stop: 404 after, port closed, redeploy runs", async () => {
  await using dir = await tempDir();
  // Every run waits (up to a minute) until the runtime aborts it.
  await using model = startModelServer({ delayMs: 60_000, respond: () => ({ text: "late" }) });
  await using mcp = await startSlowClosingMcp();
  await using runtime = await runtimeOn(join(dir.path, "state"), {
    root: dir.path,
    env: { OPENAI_COMPATIBLE_BASE_URL: model.url },
  });
  const { client, api } = runtime;
  const port = freePort();
  const config: ProcessConfigInput = {
    model: "openai-compatible:slow",
    instructions: "Take your time.",
    servers: { slow: { url: mcp.url, protocol_version: "2025-11-25" } }, // a 2025 session ends with a DELETE
    triggers: [{ type: "webhook", webhook_path: "/hook", webhook_port: port }],
  };
  assert.equal((await client.deploy("racer", config, { start: true })).state, "running");
  let refused = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await fireWebhook(port, "/hook", { round });
    await until("a run in flight", async () => (await client.getProcess("racer")).runs.in_flight === 1);
    const second = round % 2 === 0 ? "restart" : "start";
    // The stop, then the queued operation, then the removal, each sent before the previous one answered.
    const stop = api("POST", "/processes/racer/stop");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const queuedOp = api("POST", `/processes/racer/${second}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const removal = api("DELETE", "/processes/racer");
    const [stopped, other, removed] = await Promise.all([stop, queuedOp, removal]);
    assert.equal(stopped.status, 200, stopped.text);
    assert.equal(removed.status, 204, removed.text);
    if (other.status !== 200) {
      // Removal won: the queued operation is refused, as any call after the removal is.
      assert.equal(other.status, 404, other.text);
      assert.equal(JSON.parse(other.text).error.code, "PROCESS_NOT_FOUND");
      refused++;
    }
    assert.equal((await api("GET", "/processes/racer")).status, 404);
    assert.equal(await listening(port), false, `round ${round}: the removed process still holds its port`);
    const again = await api("POST", "/processes", { name: "racer", config, start: true });
    assert.equal(again.status, 201, `round ${round}: ${again.text}`);
    assert.equal(JSON.parse(again.text).state, "running");
  }
  assert.ok(
    refused >= ROUNDS / 2,
    `the race was exercised: ${refused} of ${ROUNDS} queued operations refused`,
  );
  assert.ok(mcp.closes() >= ROUNDS, "every stop waited for the slow MCP session close");
  await client.removeProcess("racer");
  assert.equal(await runtime.stop(), 0);
});

/**
 * Issue 14 item 3: a webhook client that declares `Content-Length: 100` and sends one byte must not hold
 * DELETE or SIGTERM of the real binary (the trigger answers such clients 503 when it stops, and cuts every
 * connection within its grace).
 *
 * @module
 */

import assert from "node:assert/strict";
import { startModelServer } from "../../src/models/testing/mod.ts";
import { startRuntime } from "../_agent_harness.ts";
import { tempDir } from "../_cli_harness.ts";
import { freePort } from "../_ports.ts";
import { rawClient, slowPost, within } from "../../src/_util/_test_raw_client.ts";

const CLIENTS = 5;
/** What "a few seconds" means here: the trigger's grace is 1 s. */
const BOUND_MS = 5_000;

function config(port: number) {
  return {
    model: "openai-compatible:echo",
    instructions: "Slow body target.",
    triggers: [{ type: "webhook" as const, webhook_port: port, webhook_path: "/hook" }],
  };
}

/** Resolves once a POST to the webhook is answered (the trigger is listening). */
async function webhookUp(port: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/health`);
  await response.body?.cancel();
  assert.equal(response.status, 200);
}

Deno.test("five clients that never finish their webhook body do not hold DELETE, and the port is free after", async () => {
  await using dir = await tempDir();
  await using model = await startModelServer();
  await using runtime = await startRuntime(["--data-dir", dir.path], {
    OPENAI_COMPATIBLE_BASE_URL: model.url,
  });
  const port = freePort();
  assert.equal((await runtime.client.deploy("slow", config(port), { start: true })).state, "running");
  await webhookUp(port);
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, () => rawClient(port, slowPost("/hook"))),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // the requests reach the handler
    const started = Date.now();
    await within(BOUND_MS, "DELETE /processes/slow", runtime.client.removeProcess("slow"));
    console.log(`DELETE with ${CLIENTS} slow webhook clients answered in ${Date.now() - started} ms`);
    const answers = await within(
      BOUND_MS,
      "the slow clients' answers",
      Promise.all(clients.map((c) => c.answer)),
    );
    for (const answer of answers) {
      assert.ok(
        answer === "" || /^HTTP\/1\.1 503 /.test(answer),
        `unexpected answer: ${answer.slice(0, 80)}`,
      );
    }
  } finally {
    for (const client of clients) client[Symbol.dispose]();
  }
  // Nothing holds the port: the same webhook deploys and starts again.
  assert.equal((await runtime.client.deploy("slow", config(port), { start: true })).state, "running");
  await webhookUp(port);
});

Deno.test("five clients that never finish their webhook body do not hold SIGTERM: the runtime exits 0 in time", async () => {
  await using dir = await tempDir();
  await using model = await startModelServer();
  await using runtime = await startRuntime(["--data-dir", dir.path], {
    OPENAI_COMPATIBLE_BASE_URL: model.url,
  });
  const port = freePort();
  assert.equal((await runtime.client.deploy("slow", config(port), { start: true })).state, "running");
  await webhookUp(port);
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, () => rawClient(port, slowPost("/hook"))),
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runtime.client.close();
    const started = Date.now();
    const code = await within(BOUND_MS, "SIGTERM", runtime.cli.stop("SIGTERM"));
    console.log(`SIGTERM with ${CLIENTS} slow webhook clients: exit ${code} in ${Date.now() - started} ms`);
    assert.equal(code, 0);
    await within(BOUND_MS, "the slow clients' answers", Promise.all(clients.map((c) => c.answer)));
  } finally {
    for (const client of clients) client[Symbol.dispose]();
  }
});

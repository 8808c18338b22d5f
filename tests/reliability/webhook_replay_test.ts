/**
 * Issue 14 item 12: with `signature_tolerance`, a signed webhook request carries `X-Webhook-Timestamp`, the
 * signature covers `<timestamp>.<raw body>`, stale or missing timestamps are 401 and an exact replay inside
 * the window is 409: each signed request runs the agent once (real binary, real sockets).
 *
 * @module
 */

import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { startModelServer } from "../../src/models/testing/mod.ts";
import { apiRejection, startRuntime, until } from "../_agent_harness.ts";
import { tempDir } from "../_cli_harness.ts";
import { freePort } from "../_ports.ts";

const SECRET = `replay-secret-${crypto.randomUUID()}`;

function signed(body: string, timestamp: number): Record<string, string> {
  const mac = createHmac("sha256", SECRET).update(`${timestamp}.${body}`).digest("hex");
  return {
    "content-type": "application/json",
    "x-webhook-timestamp": String(timestamp),
    "x-webhook-signature": `sha256=${mac}`,
  };
}

async function post(url: string, body: string, headers: Record<string, string>) {
  const response = await fetch(url, { method: "POST", body, headers });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

Deno.test("a signed webhook with a tolerance refuses replays (409) and stale or missing timestamps (401)", async () => {
  await using dir = await tempDir();
  await using model = await startModelServer();
  await using runtime = await startRuntime(["--data-dir", dir.path, "--allow-env-var", "HOOK_SECRET"], {
    HOOK_SECRET: SECRET,
    OPENAI_COMPATIBLE_BASE_URL: model.url,
  });
  const { client } = runtime;
  const port = freePort();
  const webhook = {
    type: "webhook" as const,
    webhook_port: port,
    webhook_path: "/pay",
    hmac_secret: "${HOOK_SECRET}",
    signature_tolerance: 300,
  };

  const refused = await apiRejection(client.deploy("bad", {
    model: "openai-compatible:echo",
    triggers: [{ type: "webhook", webhook_port: freePort(), signature_tolerance: 300 }],
  }));
  assert.equal(refused.statusCode, 422);
  assert.equal(refused.code, "INVALID_CONFIG");
  assert.ok(
    refused.details.some((d) => /signature_tolerance/.test(d.field)),
    JSON.stringify(refused.details),
  );

  const deployed = await client.deploy("payments", {
    model: "openai-compatible:echo",
    instructions: "Record the payment.",
    triggers: [webhook],
  }, { start: true });
  assert.equal(deployed.state, "running");
  const listed = (await client.listTriggers("payments")).triggers[0];
  assert.equal((listed.config as Record<string, unknown>).signature_tolerance, 300);

  const url = `http://127.0.0.1:${port}/pay`;
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ payment: 1 });
  const first = await post(url, body, signed(body, now));
  assert.equal(first.status, 202, JSON.stringify(first.body));
  const replay = await post(url, body, signed(body, now));
  assert.deepEqual([replay.status, replay.body], [409, {
    status: "error",
    message: "signature already used",
  }]);
  // Well outside the window, with a fresh clock: a busy machine may take seconds between these requests.
  const clock = () => Math.floor(Date.now() / 1000);
  const stale = await post(url, body, signed(body, clock() - 330));
  assert.deepEqual([stale.status, stale.body.message], [401, "timestamp outside the tolerance window"]);
  const future = await post(url, body, signed(body, clock() + 330));
  assert.equal(future.status, 401);
  const { "x-webhook-signature": signature } = signed(body, now);
  const missing = await post(url, body, { "x-webhook-signature": signature });
  assert.deepEqual([missing.status, missing.body.message], [401, "missing or invalid timestamp"]);
  const bodyOnly = `sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`;
  const untimed = await post(url, body, { "x-webhook-signature": bodyOnly });
  assert.equal(untimed.status, 401, "a body-only signature is not enough once a tolerance is set");
  const second = await post(url, body, signed(body, clock() + 1));
  assert.equal(second.status, 202, "the same body with a new timestamp is a new request");

  // Exactly the two accepted requests ran the agent.
  const accepted = [first.body.event_id, second.body.event_id].sort();
  await until("two runs", async () => (await client.listRuns("payments")).runs.length >= 2);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const runs = (await client.listRuns("payments")).runs;
  assert.deepEqual(runs.map((r) => r.event_id).sort(), accepted);
});

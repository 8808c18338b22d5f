import assert from "node:assert/strict";
import { freePort } from "./_ports.ts";
import { createHmac } from "node:crypto";
import { AgentRuntime, ControlServer, type Invoker, Logger, memorySink, type RunRequest } from "../mod.ts";
import { RuntimeClient } from "../src/api/client.ts";
import { createTriggersPart } from "../src/triggers/mod.ts";
import { tempDir } from "./_cli_harness.ts";

Deno.test("deploy over the API with a webhook trigger, POST to it, and the agent runs with the payload", async () => {
  await using dir = await tempDir();
  const runs: RunRequest[] = [];
  const ran = Promise.withResolvers<void>();
  const invoker: Invoker = (run) => {
    runs.push(run);
    ran.resolve();
    return Promise.resolve({ response: "handled" });
  };
  const runtime = new AgentRuntime({
    dataDir: dir.path,
    logger: new Logger("e2e", { sink: memorySink() }),
    parts: [createTriggersPart()],
    invoker,
  });
  await using server = new ControlServer(runtime, {
    port: 0,
    authToken: "e2e-token",
    allowedEnvVars: ["HOOK_SECRET"],
    env: (name) => (name === "HOOK_SECRET" ? "a-shared-secret-of-some-length" : undefined),
  });
  await server.start();
  await using client = new RuntimeClient({ baseUrl: server.url, token: "e2e-token" });
  const port = freePort();
  const deployed = await client.deploy("orders", {
    journal: { backend: "memory", level: "full" },
    triggers: [{
      type: "webhook",
      webhook_path: "/orders",
      webhook_port: port,
      hmac_secret: "${HOOK_SECRET}",
    }],
  }, { start: true });
  assert.equal(deployed.state, "running");

  const body = JSON.stringify({ order: 42 });
  const signature = createHmac("sha256", "a-shared-secret-of-some-length").update(body).digest("hex");
  const refused = await fetch(`http://127.0.0.1:${port}/orders`, { method: "POST", body });
  assert.equal(refused.status, 401);
  await refused.body?.cancel();
  const accepted = await fetch(`http://127.0.0.1:${port}/orders?source=shop`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-webhook-signature": `sha256=${signature}` },
  });
  assert.equal(accepted.status, 202);
  const { status, event_id } = await accepted.json();
  assert.equal(status, "accepted");

  await ran.promise;
  assert.equal(runs.length, 1);
  const event = runs[0].event;
  assert.equal(event.event_id, event_id);
  assert.equal(event.trigger_type, "webhook");
  assert.deepEqual(event.payload, { order: 42 });
  assert.deepEqual(event.metadata.query, { source: "shop" });
  assert.equal(event.metadata.remote, "127.0.0.1");
  assert.equal((event.metadata.headers as Record<string, string>)["x-webhook-signature"], undefined);

  const [listed] = (await client.listTriggers("orders")).triggers;
  assert.equal(event.trigger_id, listed.id);
  assert.equal(listed.config?.hmac_secret, "***");
  for (let i = 0; i < 100 && (await client.getProcess("orders")).runs.runs_succeeded !== 1; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const { runs: counters } = await client.getProcess("orders");
  assert.equal(counters.invocations, 1);
  assert.equal(counters.runs_succeeded, 1);
  const journal = await client.getJournal("orders", { limit: 500 });
  const types = journal.entries.map((e) => e.entry_type);
  for (const type of ["trigger_event", "invocation_start", "invocation_result"]) {
    assert.ok(types.includes(type), type);
  }

  const removed = await client.removeTrigger("orders", listed.id);
  assert.equal(removed.effective_from, "immediate");
  await assert.rejects(
    fetch(`http://127.0.0.1:${port}/orders`, { method: "POST", body }),
    "the webhook port is closed",
  );
  await runtime.close();
});

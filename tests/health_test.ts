import assert from "node:assert/strict";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { apiRejection, fireWebhook, startRuntimeWithModel, until } from "./_agent_harness.ts";

/** The looper calls the same tool with the same arguments on every turn; the quiet agent answers nothing. */
function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages[0]?.content ?? "";
  if (system.includes("You stay quiet.")) return { text: "   " };
  return { text: "", toolCalls: [{ name: "set_context", arguments: { values: { step: 1 } } }] };
}

Deno.test({
  name: "health over a real socket: a stuck agent is suspended, anomalies are listed and cleared, empty " +
    "replies are flagged, and a process without health answers HEALTH_DISABLED",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  await using runtime = await startRuntimeWithModel(dir.path, model.url);
  const { client } = runtime;
  const loopPort = freePort();
  await client.deploy("looper", {
    model: "openai:gpt-test",
    instructions: "You loop.",
    max_steps: 6,
    context: { writable_keys: ["step"] },
    journal: { level: "full" },
    health: { enabled: true, stuck_threshold: 3, on_anomaly: "pause", cooldown: 600 },
    triggers: [{ type: "webhook", webhook_path: "/loop", webhook_port: loopPort }],
  }, { start: true });

  await fireWebhook(loopPort, "/loop", { go: true });
  await until(
    "the stuck agent is suspended",
    async () => (await client.getProcess("looper")).state === "suspended",
  );
  const [run] = (await client.listRuns("looper")).runs;
  assert.equal(run.status, "succeeded");
  assert.equal(run.tool_calls, 6, "the run goes on to its end; the pause applies after it");

  const anomalies = await client.listAnomalies("looper");
  assert.equal(anomalies.length, 1, "one stuck anomaly: later identical calls fall in the cooldown");
  assert.equal(anomalies[0].type, "stuck");
  assert.equal(anomalies[0].run_id, run.run_id);
  assert.deepEqual(anomalies[0].details, { tool: "set_context", repeats: 3 });
  assert.match(anomalies[0].description, /set_context was called 3 times in a row/);
  assert.ok(Math.abs(Date.parse(anomalies[0].timestamp) - Date.now()) < 60_000);
  const status = await client.getProcess("looper");
  assert.deepEqual(status.health, { enabled: true, anomalies: 1, last_anomaly: anomalies[0] });
  const journal = await client.getJournal("looper", { entryType: "health_anomaly" });
  assert.equal(journal.entries.length, 1);
  assert.equal(journal.entries[0].data.type, "stuck");
  const transitions = await client.getJournal("looper", { entryType: "state_transition" });
  assert.ok(transitions.entries.some((entry) => entry.data.reason === "health anomaly: stuck"));

  assert.deepEqual(await client.clearAnomalies("looper"), { name: "looper", anomalies_cleared: 1 });
  assert.deepEqual(await client.listAnomalies("looper"), []);
  assert.equal((await client.getProcess("looper")).health.last_anomaly, null);

  // Cleared cooldowns: the next stuck run is reported again (and pauses again).
  await client.resumeProcess("looper");
  await fireWebhook(loopPort, "/loop", { go: true });
  await until("the second stuck run", async () => (await client.listAnomalies("looper")).length === 1);
  await until("suspended again", async () => (await client.getProcess("looper")).state === "suspended");

  // Empty replies: two in a row with empty_threshold 2.
  const quietPort = freePort();
  await client.deploy("quiet", {
    model: "openai:gpt-test",
    instructions: "You stay quiet.",
    health: { enabled: true, empty_threshold: 2, empty_max_chars: 0 },
    triggers: [{ type: "webhook", webhook_path: "/quiet", webhook_port: quietPort }],
  }, { start: true });
  await fireWebhook(quietPort, "/quiet", { go: true });
  await until("the first quiet run", async () => (await client.listRuns("quiet")).runs.length === 1);
  await until(
    "the first run ends",
    async () => (await client.listRuns("quiet")).runs[0].status !== "running",
  );
  assert.deepEqual(await client.listAnomalies("quiet"), [], "one empty reply is below the threshold");
  await fireWebhook(quietPort, "/quiet", { go: true });
  await until("the empty reply anomaly", async () => (await client.listAnomalies("quiet")).length === 1);
  const [empty] = await client.listAnomalies("quiet");
  assert.equal(empty.type, "empty_response");
  assert.deepEqual(empty.details, { empty_replies: 2 });
  assert.equal((await client.getProcess("quiet")).state, "running", "on_anomaly log does not pause");

  // No health section: 400 HEALTH_DISABLED on both routes.
  await client.deploy("plain", { model: "openai:gpt-test", instructions: "Plain." });
  for (const call of [client.listAnomalies("plain"), client.clearAnomalies("plain")]) {
    const error = await apiRejection(call);
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, "HEALTH_DISABLED");
  }
  assert.deepEqual((await client.getProcess("plain")).health, {
    enabled: false,
    anomalies: 0,
    last_anomaly: null,
  });
});

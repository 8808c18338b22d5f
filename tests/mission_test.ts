import assert from "node:assert/strict";
import { join } from "node:path";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import { JUDGE_SYSTEM_MARKER } from "../src/runtime/mod.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { apiRejection, fireWebhook, startRuntime, startRuntimeWithModel, until } from "./_agent_harness.ts";

/**
 * Judge calls are told from agent turns by the judge's system prompt. The judge model `judge-yes` finds
 * the objective achieved; any other judge answers "not yet". Agents answer a short text.
 */
function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages[0]?.content ?? "";
  if (system.startsWith(JUDGE_SYSTEM_MARKER)) {
    const achieved = request.body.model === "judge-yes";
    return {
      text: JSON.stringify({
        achieved,
        confidence: achieved ? 0.9 : 0.95,
        reasoning: achieved ? "the report was sent" : "nothing sent yet",
        progress_summary: achieved ? "report sent" : "drafting",
      }),
    };
  }
  return { text: "Worked on the report." };
}

const isJudge = (r: RecordedRequest) => (r.messages[0]?.content ?? "").startsWith(JUDGE_SYSTEM_MARKER);

function mission(extra: Record<string, unknown>) {
  return {
    enabled: true,
    objective: "Send the weekly report",
    success_criteria: "The report is sent",
    ...extra,
  };
}

Deno.test({
  name: "missions over a real socket: one judged achieved stops its process, one fails at max_invocations, " +
    "and later runs are blocked without calling the model",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  await using runtime = await startRuntimeWithModel(dir.path, model.url);
  const { client } = runtime;
  const port = freePort();
  await client.deploy("achiever", {
    model: "openai:gpt-test",
    instructions: "You write reports.",
    journal: { level: "checkpoint" },
    mission: mission({ eval_every: 2, eval_model: "openai:judge-yes", on_complete: "stop" }),
    triggers: [{ type: "webhook", webhook_path: "/go", webhook_port: port }],
  }, { start: true });
  assert.deepEqual((await client.getProcess("achiever")).mission, {
    enabled: true,
    state: "pending",
    evaluations: 0,
  });

  await fireWebhook(port, "/go", { go: true });
  await until("the first run", async () => (await client.getMission("achiever")).invocation_count === 1);
  assert.equal(model.requests.filter(isJudge).length, 0, "eval_every 2: no judge after one run");
  await fireWebhook(port, "/go", { go: true });
  await until("the process stops", async () => (await client.getProcess("achiever")).state === "stopped");

  const judged = model.requests.filter(isJudge);
  assert.equal(judged.length, 1);
  assert.equal(judged[0].body.model, "judge-yes", "eval_model is used for the judge");
  assert.match(judged[0].messages[1].content, /Objective: Send the weekly report/);
  const agentTurns = model.requests.filter((r) => !isJudge(r));
  assert.equal(agentTurns.length, 2);
  const block = agentTurns[1].messages.find((m) => m.content.includes("[Mission]"));
  assert.ok(
    block?.content.includes(
      "[Mission] State: active | Objective: Send the weekly report\nSuccess criteria: The report is sent\n" +
        "Evaluations: 0 | Last confidence: none | Last summary: none",
    ),
    block?.content,
  );

  const view = await client.getMission("achiever");
  assert.equal(view.state, "completed");
  assert.equal(view.reason, "objective achieved");
  assert.equal(view.invocation_count, 2);
  assert.equal(view.evaluations.length, 1);
  const [evaluation] = view.evaluations;
  assert.deepEqual(
    { ...evaluation, timestamp: "t" },
    {
      evaluation: 1,
      invocation: 2,
      achieved: true,
      confidence: 0.9,
      reasoning: "the report was sent",
      progress_summary: "report sent",
      model: "openai:judge-yes",
      timestamp: "t",
    },
  );
  const entries = (await client.getJournal("achiever", { entryType: "mission_evaluation" })).entries;
  assert.equal(entries.length, 1);
  assert.equal(entries[0].data.progress_summary, "report sent");
  const transitions = (await client.getJournal("achiever", { entryType: "state_transition" })).entries;
  assert.ok(transitions.some((e) => e.data.reason === "mission completed"));

  // Started again: the completed mission's runs are blocked, the model is not called.
  await client.startProcess("achiever");
  const before = model.requests.length;
  await fireWebhook(port, "/go", { go: true });
  await until("the blocked run", async () => (await client.listRuns("achiever")).runs.length === 3);
  await until(
    "the run ends",
    async () => (await client.listRuns("achiever")).runs[0].status !== "running",
  );
  const [blocked] = (await client.listRuns("achiever")).runs;
  assert.equal(blocked.status, "blocked");
  assert.equal(blocked.error, "mission completed");
  assert.equal(model.requests.length, before);
  const status = await client.getProcess("achiever");
  assert.equal(status.state, "running", "a blocked run is not a failure");
  assert.equal(status.runs.dead_letters, 1);

  // A mission judged "not yet" fails at max_invocations.
  const port2 = freePort();
  await client.deploy("limited", {
    model: "openai:gpt-test",
    instructions: "You write reports.",
    mission: mission({ max_invocations: 2, eval_model: "openai:judge-no" }),
    triggers: [{ type: "webhook", webhook_path: "/go", webhook_port: port2 }],
  }, { start: true });
  await fireWebhook(port2, "/go", { go: true });
  await fireWebhook(port2, "/go", { go: true });
  await until("the mission fails", async () => (await client.getMission("limited")).state === "failed");
  const failed = await client.getMission("limited");
  assert.equal(failed.reason, "max invocations reached");
  assert.equal(failed.invocation_count, 2);
  assert.deepEqual(failed.evaluations.map((e) => e.achieved), [false, false]);
  const calls = model.requests.length;
  await fireWebhook(port2, "/go", { go: true });
  await until("the third run ends", async () => {
    const runs = (await client.listRuns("limited")).runs;
    return runs.length === 3 && runs[0].status !== "running";
  });
  const [refused] = (await client.listRuns("limited")).runs;
  assert.equal(refused.status, "blocked");
  assert.equal(refused.error, "mission failed");
  assert.equal(model.requests.length, calls);
  assert.equal(
    (await client.getProcess("limited")).state,
    "running",
    "a failed mission does not fail the process",
  );
});

Deno.test({
  name: "mission routes over a real socket: fail, pause and resume per the state table, MISSION_DISABLED, " +
    "and the live PATCH rules",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  await using runtime = await startRuntimeWithModel(dir.path, model.url);
  const { client } = runtime;
  const port = freePort();
  await client.deploy("ops", {
    model: "openai:gpt-test",
    instructions: "You write reports.",
    mission: mission({ eval_every: 100 }),
    triggers: [{ type: "webhook", webhook_path: "/go", webhook_port: port }],
  }, { start: true });
  const state = async (call: Promise<unknown>) => {
    const error = await apiRejection(call);
    assert.equal(error.statusCode, 409);
    assert.equal(error.code, "MISSION_STATE");
  };
  const pending = await client.getMission("ops");
  assert.equal(pending.state, "pending");
  assert.equal(pending.objective, "Send the weekly report");
  await state(client.failMission("ops"));
  await state(client.pauseMission("ops"));
  await state(client.resumeMission("ops"));
  await fireWebhook(port, "/go", { go: true });
  await until("active", async () => (await client.getMission("ops")).invocation_count === 1);
  assert.equal((await client.getMission("ops")).state, "active");
  await state(client.resumeMission("ops"));
  assert.equal((await client.pauseMission("ops")).state, "paused");
  await state(client.pauseMission("ops"));
  assert.equal((await client.resumeMission("ops")).state, "active");

  // Live PATCH: validated as a whole, nothing changes on error; progress is kept.
  const code = async (call: Promise<unknown>, status: number, expected: string) => {
    const error = await apiRejection(call);
    assert.equal(error.statusCode, status);
    assert.equal(error.code, expected);
  };
  await code(client.updateMission("ops", {}), 422, "MISSING_FIELD");
  await code(client.updateMission("ops", { bogus: 1 } as never), 422, "UNKNOWN_FIELD");
  await code(
    client.updateMission("ops", { escalation: { webhook_url: "http://x", x: 1 } } as never),
    422,
    "UNKNOWN_FIELD",
  );
  await code(client.updateMission("ops", { eval_every: "5" } as never), 422, "INVALID_CONFIG");
  await code(client.updateMission("ops", { objective: "" }), 422, "INVALID_CONFIG");
  await code(
    client.updateMission("ops", { escalation: { webhook_url: "${HOOK_URL}" } }),
    403,
    "ENV_REFERENCES_NOT_ALLOWED",
  );
  const patched = await client.updateMission("ops", {
    objective: "Send the monthly report",
    eval_model: null,
  });
  assert.equal(patched.live, true);
  assert.equal(patched.effective_from, "immediate");
  assert.equal(patched.mission.objective, "Send the monthly report");
  assert.equal(patched.mission.eval_every, 100);
  const kept = await client.getMission("ops");
  assert.equal(kept.state, "active");
  assert.equal(kept.invocation_count, 1);
  assert.equal(kept.objective, "Send the monthly report");

  const failed = await client.failMission("ops");
  assert.equal(failed.state, "failed");
  assert.equal(failed.reason, "failed by an operator");
  await state(client.failMission("ops", { reason: "again" }));
  await state(client.resumeMission("ops"));

  // A process without a mission: 400 MISSION_DISABLED; PATCH enabled true builds one, false removes it.
  const plainPort = freePort();
  await client.deploy("plain", {
    model: "openai:gpt-test",
    instructions: "Plain.",
    triggers: [{ type: "webhook", webhook_path: "/p", webhook_port: plainPort }],
  }, { start: true });
  await code(client.getMission("plain"), 400, "MISSION_DISABLED");
  await code(client.failMission("plain", { reason: "x" }), 400, "MISSION_DISABLED");
  await code(client.pauseMission("plain"), 400, "MISSION_DISABLED");
  await code(client.resumeMission("plain"), 400, "MISSION_DISABLED");
  assert.deepEqual((await client.getProcess("plain")).mission, {
    enabled: false,
    state: null,
    evaluations: 0,
  });
  await code(client.updateMission("plain", { enabled: true }), 422, "INVALID_CONFIG"); // no objective
  await client.updateMission("plain", { enabled: true, objective: "Be useful" });
  assert.equal((await client.getMission("plain")).state, "pending");
  assert.deepEqual((await client.getProcess("plain")).mission, {
    enabled: true,
    state: "pending",
    evaluations: 0,
  });
  // Built live, the mission starts with the next run; an operator-given reason is kept.
  await fireWebhook(plainPort, "/p", { go: true });
  await until("active", async () => (await client.getMission("plain")).state === "active");
  const given = await client.failMission("plain", { reason: "budget cut" });
  assert.equal(given.reason, "budget cut");
  assert.equal(given.state, "failed");
  await client.updateMission("plain", { enabled: false });
  await code(client.getMission("plain"), 400, "MISSION_DISABLED");
  assert.deepEqual((await client.getProcess("plain")).mission, {
    enabled: false,
    state: null,
    evaluations: 0,
  });
});

Deno.test({
  name: "mission progress and a live mission patch survive a restart of the runtime with the same data dir",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  const args = ["--data-dir", join(dir.path, "state")];
  const env = { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test-key" };
  const port = freePort();
  const first = await startRuntime(args, env);
  let before;
  try {
    const { client } = first;
    await client.deploy("keeper", {
      model: "openai:gpt-test",
      instructions: "You write reports.",
      journal: { level: "checkpoint" },
      mission: mission({ eval_model: "openai:judge-no" }),
      triggers: [{ type: "webhook", webhook_path: "/go", webhook_port: port }],
    }, { start: true });
    await fireWebhook(port, "/go", { go: true });
    await until(
      "the first evaluation",
      async () => (await client.getMission("keeper")).evaluations.length === 1,
    );
    await fireWebhook(port, "/go", { go: true });
    await until(
      "the second evaluation",
      async () => (await client.getMission("keeper")).evaluations.length === 2,
    );
    await client.pauseMission("keeper");
    await client.updateMission("keeper", { objective: "Send the monthly report" });
    before = await client.getMission("keeper");
  } finally {
    await first[Symbol.asyncDispose]();
  }
  await using second = await startRuntime(args, env);
  await until(
    "the process is restored",
    async () => (await second.client.listProcesses()).processes.some((p) => p.name === "keeper"),
  );
  const after = await second.client.getMission("keeper");
  assert.equal(after.objective, "Send the monthly report", "the patched section is kept");
  assert.equal(after.invocation_count, 2);
  assert.deepEqual(after.evaluations, before.evaluations);
  assert.equal(after.state, "paused", "the pause, journaled after the last checkpoint, is replayed");
});

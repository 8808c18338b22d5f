/**
 * Black-box: an escalation's `event_type` through the CLI runtime and the local model server. A worker's
 * budget escalates with `event_type: "budget.alert"`; a supervisor with an `event` trigger on that type
 * (from that worker) wakes once and its model reads the escalation body.
 */

import assert from "node:assert/strict";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { fireWebhook, startRuntimeWithModel, until } from "./_agent_harness.ts";

const usage = { input_tokens: 10, output_tokens: 5 };

/** The supervisor answers with what woke it; the worker calls set_context until the budget refuses. */
function respond(request: RecordedRequest): ScriptedReply {
  const system = request.messages.find((m) => m.role === "system")?.content ?? "";
  if (system.includes("Supervise.")) return { text: "Supervisor: noted the budget alert.", usage };
  const last = request.messages.at(-1)!;
  if (last.role === "tool" && last.content.startsWith("Budget limit reached")) {
    return { text: "Stopped.", usage };
  }
  const calls = request.messages.filter((m) => m.role === "tool").length;
  return { text: "", toolCalls: [{ name: "set_context", arguments: { values: { n: calls + 1 } } }], usage };
}

function isSupervisor(request: RecordedRequest): boolean {
  return request.messages.some((m) => m.role === "system" && m.content.includes("Supervise."));
}

Deno.test({
  name: "a budget escalation with event_type wakes the process whose event trigger listens for it, once",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  const port = freePort();
  await using runtime = await startRuntimeWithModel(dir.path, model.url);
  const { client } = runtime;
  await client.deploy("supervisor", {
    model: "openai:gpt-test",
    instructions: "Supervise.",
    triggers: [{ type: "event", event_type: "budget.alert", event_source: "worker" }],
  }, { start: true });
  await client.deploy("worker", {
    model: "openai:gpt-test",
    instructions: "Count.",
    context: { writable_keys: ["n"] },
    journal: { level: "full" },
    budget: {
      enabled: true,
      max_tool_calls_per_run: 1,
      on_exceeded: "escalate",
      escalation: { event_type: "budget.alert" },
    },
    triggers: [{ type: "webhook", webhook_path: "/work", webhook_port: port }],
  }, { start: true });
  assert.equal((await client.listRuns("supervisor")).runs.length, 0, "nothing woke the supervisor yet");

  await fireWebhook(port, "/work", { go: true });
  await until(
    "the budget suspends the worker",
    async () => (await client.getProcess("worker")).state === "suspended",
  );
  await until("the supervisor ran", async () => {
    const [run] = (await client.listRuns("supervisor")).runs;
    return run?.status === "succeeded";
  });

  const [run] = (await client.listRuns("supervisor")).runs;
  assert.equal(run.reply, "Supervisor: noted the budget alert.");
  const asked = model.requests.filter(isSupervisor);
  assert.equal(asked.length, 1);
  const prompt = asked[0].messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
  for (
    const fact of ['"budget_violation"', '"process_name":"worker"', '"limit_name":"max_tool_calls_per_run"']
  ) {
    assert.ok(prompt.replaceAll(/\s/g, "").includes(fact), `the supervisor's model read ${fact}: ${prompt}`);
  }
  const journal = await client.getJournal("worker", { limit: 500 });
  const escalations = journal.entries.filter((e) => e.entry_type === "budget_escalation");
  assert.equal(escalations.length, 1);
  assert.equal(escalations[0].data.event, "emitted");
  assert.equal(escalations[0].data.webhook, false);

  // Exactly once: nothing else wakes the supervisor.
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal((await client.listRuns("supervisor")).runs.length, 1);
});

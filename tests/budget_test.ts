/**
 * Black-box: the budget over a real socket, with the CLI runtime and the local model server. The model
 * keeps calling a tool; the budget refuses the call past the limit (the model reads why), pauses the
 * process after the run; a live PATCH lowers a limit mid-day keeping usage; PATCH refusals change
 * nothing; counters and the patched section survive a runtime restart.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import { RuntimeApiError, type RuntimeClient } from "../src/api/client.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { fireWebhook, startRuntime, until } from "./_agent_harness.ts";

/** A model that calls set_context again and again until a tool result says the budget refused it. */
function respond(request: RecordedRequest): ScriptedReply {
  const last = request.messages.at(-1)!;
  if (last.role === "tool" && last.content.startsWith("Budget limit reached")) {
    return { text: `Stopped: ${last.content}`, usage: { input_tokens: 10, output_tokens: 5 } };
  }
  const calls = request.messages.filter((m) => m.role === "tool").length;
  return {
    text: "",
    toolCalls: [{ name: "set_context", arguments: { values: { n: calls + 1 } } }],
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

async function budgetOf(client: RuntimeClient) {
  const budget = (await client.getProcess("looper")).budget;
  assert.equal(budget.enabled, true);
  if (!budget.enabled) throw new Error("no budget");
  return budget;
}

async function refusal(
  client: RuntimeClient,
  fields: Record<string, unknown>,
): Promise<[number, string | null, string[]]> {
  try {
    await client.updateBudget("looper", fields);
  } catch (error) {
    if (!(error instanceof RuntimeApiError)) throw error;
    return [error.statusCode, error.code, error.details.map((d) => d.field)];
  }
  throw new Error(`accepted: ${JSON.stringify(fields)}`);
}

Deno.test({
  name: "a budget stops a tool-calling loop at the limit, pauses the process, takes a live PATCH " +
    "mid-day and keeps its counters across a restart",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  const port = freePort();
  const args = ["--data-dir", join(dir.path, "state")];
  const env = { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test-key" };
  const first = await startRuntime(args, env);
  try {
    const { client } = first;
    await client.deploy("looper", {
      model: "openai:gpt-test",
      instructions: "Count.",
      context: { writable_keys: ["n"] },
      journal: { level: "full" },
      budget: { enabled: true, max_tool_calls_per_run: 2, max_tool_calls_per_day: 10, on_exceeded: "pause" },
      triggers: [{ type: "webhook", webhook_path: "/loop", webhook_port: port }],
    }, { start: true });

    await fireWebhook(port, "/loop", { go: true });
    await until(
      "the budget pauses the process",
      async () => (await client.getProcess("looper")).state === "suspended",
    );
    const [run] = (await client.listRuns("looper")).runs;
    assert.equal(run.status, "succeeded");
    assert.match(run.reply ?? "", /^Stopped: Budget limit reached: max_tool_calls_per_run is 2 \(2 used\)/);
    const results = (await client.getRun("looper", run.run_id)).steps.filter((s) => s.type === "tool_result");
    assert.deepEqual(results.map((s) => s.data.is_error), [false, false, true]);
    assert.equal((await client.getContext("looper")).state.n, 2, "the refused call did not run");
    const system = model.requests[0].messages.find((m) => m.role === "system");
    assert.match(system?.content ?? "", /\n\[Budget Remaining\] \{"tool_calls_run":2,.*"tool_calls_day":10,/);
    let budget = await budgetOf(client);
    assert.deepEqual(budget.used_today, { tool_calls: 2, runs: 1, cost: 2, tokens: 60 });
    assert.equal(budget.last_violation?.limit, "max_tool_calls_per_run");
    const journal = await client.getJournal("looper", { limit: 500 });
    const types = journal.entries.map((e) => e.entry_type);
    for (const type of ["budget_warning", "budget_exceeded", "budget_action"]) {
      assert.ok(types.includes(type), type);
    }

    // A live PATCH lowers the day limit: the 2 calls already made still count.
    const patched = await client.updateBudget("looper", { max_tool_calls_per_day: 3 });
    assert.deepEqual(
      { live: patched.live, from: patched.effective_from, day: patched.budget.max_tool_calls_per_day },
      { live: true, from: "next_budget_check", day: 3 },
    );
    budget = await budgetOf(client);
    assert.equal(budget.remaining.tool_calls_day, 1);
    assert.equal(budget.used_today.tool_calls, 2);

    // Refusals change nothing.
    assert.deepEqual(await refusal(client, { escalation: { event_type: "x", channel: "#ops" } }), [
      422,
      "UNKNOWN_FIELD",
      ["escalation.channel"],
    ]);
    assert.deepEqual(await refusal(client, { tool_costs: { set_context: { weight: 2 } } }), [
      422,
      "UNKNOWN_FIELD",
      ["tool_costs.set_context.weight"],
    ]);
    assert.deepEqual(await refusal(client, { max_tool_calls_per_day: "5" }), [
      422,
      "INVALID_CONFIG",
      ["max_tool_calls_per_day"],
    ]);
    assert.deepEqual(await refusal(client, { on_exceeded: "escalate" }), [422, "INVALID_CONFIG", [
      "escalation",
    ]]);
    assert.deepEqual(await refusal(client, {}), [422, "MISSING_FIELD", ["(body)"]]);
    assert.equal((await budgetOf(client)).remaining.tool_calls_day, 1);

    await client.resumeProcess("looper");
    await fireWebhook(port, "/loop", { go: true });
    await until(
      "the second run pauses the process",
      async () =>
        (await client.listRuns("looper")).runs.length === 2 &&
        (await client.getProcess("looper")).state === "suspended",
    );
    const [second] = (await client.listRuns("looper")).runs;
    assert.match(second.reply ?? "", /max_tool_calls_per_day is 3 \(3 used\)/);
    assert.equal((await budgetOf(client)).used_today.tool_calls, 3);
  } finally {
    await first[Symbol.asyncDispose]();
  }

  // The counters (from the last checkpoint) and the patched limit survive a restart.
  await using second = await startRuntime(args, env);
  await until(
    "the process is restored",
    async () => (await second.client.listProcesses()).processes.some((p) => p.name === "looper"),
  );
  const budget = await budgetOf(second.client);
  assert.equal(budget.used_today.tool_calls, 3);
  assert.equal(budget.used_today.runs, 2);
  assert.equal(budget.remaining.tool_calls_day, 0);
});

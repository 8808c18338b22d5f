import assert from "node:assert/strict";
import { Logger, memorySink } from "../../log.ts";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { AgentProcess, runsOf } from "../process.ts";
import type { Invoker, ProcessEvent } from "../process_event.ts";
import type { ProcessState } from "../lifecycle.ts";
import { testConfig } from "../_test_config.ts";

let seq = 0;
function event(): ProcessEvent {
  seq++;
  return {
    trigger_id: "t-1",
    trigger_type: "event",
    event_id: `e-${seq}`,
    timestamp: new Date().toISOString(),
    payload: {},
    metadata: {},
  };
}

/** An invoker that asks the budget for `calls` tool calls, as the agent runner does. */
function toolCalling(calls: number, seen: boolean[][]): Invoker {
  return (run) => {
    const allowed: boolean[] = [];
    for (let i = 0; i < calls; i++) allowed.push(run.budget?.beforeToolCall("search").ok ?? true);
    seen.push(allowed);
    return Promise.resolve({ response: "done" });
  };
}

function processWith(budget: Record<string, unknown>, invoker: Invoker) {
  const journal = new ProcessJournal(new MemoryJournal(), { process: "b", level: "full" });
  const process = new AgentProcess({
    name: "b",
    config: testConfig({ budget: { enabled: true, ...budget } }),
    logger: new Logger("t", { sink: memorySink() }),
    journal,
    invoker,
  });
  return { process, journal };
}

function reached(process: AgentProcess, state: ProcessState): Promise<void> {
  if (process.state === state) return Promise.resolve();
  return new Promise((resolve) => {
    const off = process.onTransition((t) => {
      if (t.to !== state) return;
      off();
      resolve();
    });
  });
}

Deno.test("on_exceeded pause suspends the process after a run with a refused tool call", async () => {
  const seen: boolean[][] = [];
  const { process, journal } = processWith({ max_tool_calls_per_run: 2 }, toolCalling(3, seen));
  await process.start();
  try {
    const suspended = reached(process, "suspended");
    await runsOf(process).deliver(event());
    await suspended;
    assert.deepEqual(seen, [[true, true, false]]);
    assert.equal(process.history.at(-1)?.reason, "budget exceeded: max_tool_calls_per_run");
    const types = (await journal.read()).map((e) => e.entry_type);
    assert.ok(types.includes("budget_warning"));
    assert.ok(types.includes("budget_exceeded"));
    assert.ok(types.includes("budget_action"));
    assert.equal(process.runLog.list(1)[0].status, "succeeded");
  } finally {
    await process.stop();
  }
});

Deno.test("on_exceeded stop stops the process after the run", async () => {
  const seen: boolean[][] = [];
  const { process } = processWith({ max_tool_calls_per_day: 1, on_exceeded: "stop" }, toolCalling(2, seen));
  await process.start();
  const stopped = reached(process, "stopped");
  await runsOf(process).deliver(event());
  await stopped;
  assert.deepEqual(seen, [[true, false]]);
  assert.equal(process.history.at(-2)?.reason, "budget exceeded: max_tool_calls_per_day");
});

Deno.test("a run over max_runs_per_day is blocked without calling the agent, then the process pauses", async () => {
  const seen: boolean[][] = [];
  const { process } = processWith({ max_runs_per_day: 1 }, toolCalling(0, seen));
  await process.start();
  try {
    await runsOf(process).deliver(event());
    const suspended = reached(process, "suspended");
    await runsOf(process).deliver(event());
    await suspended;
    assert.equal(seen.length, 1);
    const [last] = process.runLog.list(1);
    assert.equal(last.status, "blocked");
    assert.equal(last.error, "budget exceeded: max_runs_per_day");
    assert.equal(runsOf(process).deadLetters.size, 1);
    assert.equal(process.status().runs.runs_failed ?? 0, 0);
  } finally {
    await process.stop();
  }
});

Deno.test("on_exceeded escalate POSTs the violation to the webhook, then pauses", async () => {
  const bodies: unknown[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    bodies.push(await request.json());
    return new Response(null, { status: 204 });
  });
  const url = `http://127.0.0.1:${server.addr.port}/hook`;
  const seen: boolean[][] = [];
  const { process, journal } = processWith({
    max_tool_calls_per_run: 1,
    on_exceeded: "escalate",
    escalation: { webhook_url: url, allow_private_network: true },
  }, toolCalling(2, seen));
  await process.start();
  try {
    const suspended = reached(process, "suspended");
    await runsOf(process).deliver(event());
    await suspended;
    assert.equal(bodies.length, 1);
    const body = bodies[0] as Record<string, unknown>;
    assert.equal(body.type, "budget_violation");
    assert.equal(body.process_name, "b");
    assert.deepEqual(body.violation, {
      limit_name: "max_tool_calls_per_run",
      limit_value: 1,
      current_value: 1,
      tool_name: "search",
    });
    const [escalation] = await journal.read({ type: "budget_escalation" });
    assert.equal(escalation.data.sent, true);
    assert.equal(escalation.data.status, 204);
  } finally {
    await process.stop();
  }
});

Deno.test("the status body shows the budget: remaining, used today, last reset", async () => {
  const seen: boolean[][] = [];
  const { process } = processWith({ max_tool_calls_per_day: 10, max_runs_per_day: 5 }, toolCalling(3, seen));
  await process.start();
  try {
    await runsOf(process).deliver(event());
    while (process.status().runs.runs_succeeded !== 1) await new Promise((r) => setTimeout(r, 5));
    const budget = process.status().budget;
    assert.equal(budget.enabled, true);
    if (!budget.enabled) return;
    assert.equal(budget.remaining.tool_calls_day, 7);
    assert.equal(budget.remaining.runs_day, 4);
    assert.deepEqual(budget.used_today, { tool_calls: 3, runs: 1, cost: 3, tokens: 0 });
    assert.match(budget.last_reset, /T00:00:00\.000Z$/);
  } finally {
    await process.stop();
  }
  const plain = new AgentProcess({ name: "p", config: testConfig({}) });
  assert.deepEqual(plain.status().budget, { enabled: false });
});

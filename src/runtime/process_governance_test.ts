import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { MemoryJournal, ProcessJournal } from "../journal/mod.ts";
import { AgentProcess, runsOf } from "./process.ts";
import type { Invoker, ProcessEvent } from "./process_event.ts";
import type { ProcessState } from "./lifecycle.ts";
import type { RuntimeEventInput, RuntimeEvents } from "./escalator.ts";
import { testConfig } from "./_test_config.ts";

/** Events as a bus receives them; `emit` answers an id, as the triggers area's `EventBus` does. */
function recordingEvents(): RuntimeEvents & { emitted: RuntimeEventInput[] } {
  const emitted: RuntimeEventInput[] = [];
  return { emitted, emit: (event) => `event-${emitted.push(structuredClone(event))}` };
}

let seq = 0;
function event(): ProcessEvent {
  return {
    trigger_id: "t-1",
    trigger_type: "event",
    event_id: `e-${++seq}`,
    timestamp: new Date().toISOString(),
    payload: {},
    metadata: {},
  };
}

function governed(
  name: string,
  config: Record<string, unknown>,
  options: { invoker: Invoker; events?: RuntimeEvents },
) {
  const journal = new ProcessJournal(new MemoryJournal(), { process: name, level: "full" });
  const sink = memorySink();
  const process = new AgentProcess({
    name,
    config: testConfig(config),
    logger: new Logger("t", { sink }),
    journal,
    invoker: options.invoker,
    events: options.events,
  });
  const entries = async (type: string) => (await journal.read({ type })).map((entry) => entry.data);
  return { process, entries, sink };
}

async function runUntil(process: AgentProcess, state: ProcessState): Promise<void> {
  const reached = new Promise<void>((resolve) => {
    const off = process.onTransition((t) => {
      if (t.to === state) (off(), resolve());
    });
  });
  await runsOf(process).deliver(event());
  await reached;
}

/** A local webhook that records the JSON bodies it receives. */
function webhook() {
  const bodies: unknown[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    bodies.push(await request.json());
    return new Response(null, { status: 204 });
  });
  return { bodies, server, url: `http://127.0.0.1:${server.addr.port}/hook` };
}

/** Asks the budget for two tool calls; the second is over `max_tool_calls_per_run: 1`. */
const overBudget: Invoker = (run) => {
  for (let i = 0; i < 2; i++) run.budget?.beforeToolCall("search");
  return Promise.resolve({ response: "done" });
};

Deno.test("each budget escalation is emitted once as its event_type with the webhook's body, and POSTed too", async () => {
  const events = recordingEvents();
  const hook = webhook();
  const { process, entries } = governed("spender", {
    budget: {
      enabled: true,
      max_tool_calls_per_run: 1,
      on_exceeded: "escalate",
      escalation: { event_type: "budget.alert", webhook_url: hook.url, allow_private_network: true },
    },
  }, { invoker: overBudget, events });
  try {
    await process.start();
    await runUntil(process, "suspended");
    assert.equal(events.emitted.length, 1);
    const [emitted] = events.emitted;
    assert.equal(emitted.event_type, "budget.alert");
    assert.equal(emitted.source, "spender");
    assert.deepEqual(emitted.data, hook.bodies[0], "the event's data is the webhook's body");
    assert.deepEqual({ ...emitted.data, at: "-" }, {
      type: "budget_violation",
      process_id: process.processId,
      process_name: "spender",
      violation: {
        limit_name: "max_tool_calls_per_run",
        limit_value: 1,
        current_value: 1,
        tool_name: "search",
      },
      at: "-",
    });
    await process.resume();
    await runUntil(process, "suspended");
    assert.equal(events.emitted.length, 2, "one event per escalation");
    assert.equal(hook.bodies.length, 2);
    assert.deepEqual((await entries("budget_escalation"))[0], {
      limit: "max_tool_calls_per_run",
      event_type: "budget.alert",
      webhook: true,
      sent: true,
      status: 204,
      event: "emitted",
      event_id: "event-1",
    });
  } finally {
    await process.stop();
    await hook.server.shutdown();
  }
});

Deno.test("a health escalation with event_type is emitted once with the anomaly body", async () => {
  const events = recordingEvents();
  const stuck: Invoker = (run) => {
    for (let i = 0; i < 2; i++) run.health?.toolCall("lookup", { id: 7 });
    return Promise.resolve({ response: "done" });
  };
  const { process, entries } = governed("watched", {
    health: {
      enabled: true,
      stuck_threshold: 2,
      on_anomaly: "escalate",
      escalation: { event_type: "ops.health" },
    },
  }, { invoker: stuck, events });
  try {
    await process.start();
    await runUntil(process, "suspended");
    await process.health.idle();
    assert.equal(events.emitted.length, 1);
    const [emitted] = events.emitted;
    const [anomaly] = process.health.anomalies();
    assert.deepEqual(emitted, {
      event_type: "ops.health",
      source: "watched",
      data: {
        type: "health_anomaly",
        process_id: process.processId,
        process_name: "watched",
        anomaly_type: "stuck",
        description: anomaly.description,
        details: anomaly.details,
        timestamp: anomaly.timestamp,
      },
    });
    assert.deepEqual(await entries("health_escalation"), [
      { anomaly_type: "stuck", webhook: false, sent: false, event: "emitted", event_id: "event-1" },
    ]);
  } finally {
    await process.stop();
  }
});

Deno.test("a low-confidence mission verdict is emitted once as the escalation's event_type and POSTed", async () => {
  const events = recordingEvents();
  const hook = webhook();
  const judged: Invoker = async (run) => {
    const answer = { achieved: false, confidence: 0.2, reasoning: "no draft", progress_summary: "stalled" };
    await run.mission?.afterRun({ reply: "working", conversation: [], state: {} }, {
      judge: () => Promise.resolve(JSON.stringify(answer)),
    });
    return { response: "working" };
  };
  const { process, entries } = governed("writer", {
    mission: {
      enabled: true,
      objective: "Ship the report",
      eval_every: 1,
      confidence_threshold: 0.6,
      escalation: { event_type: "mission.low", webhook_url: hook.url, allow_private_network: true },
    },
  }, { invoker: judged, events });
  try {
    await process.start();
    await runsOf(process).deliver(event());
    while (process.status().runs.runs_succeeded !== 1) await new Promise((r) => setTimeout(r, 5));
    await process.mission?.idle();
    assert.equal(events.emitted.length, 1);
    assert.deepEqual(events.emitted[0], {
      event_type: "mission.low",
      source: "writer",
      data: {
        type: "mission_low_confidence",
        process_id: process.processId,
        process_name: "writer",
        confidence: 0.2,
        reasoning: "no draft",
        progress_summary: "stalled",
        evaluation: 1,
      },
    });
    assert.deepEqual(hook.bodies, [events.emitted[0].data]);
    assert.deepEqual(await entries("mission_escalation"), [
      { confidence: 0.2, webhook: true, sent: true, status: 204, event: "emitted", event_id: "event-1" },
    ]);
  } finally {
    await process.stop();
    await hook.server.shutdown();
  }
});

Deno.test("without events an event_type escalation is journaled no_event_bus and warned about once per process", async () => {
  const { process, entries, sink } = governed("alone", {
    budget: {
      enabled: true,
      max_tool_calls_per_run: 1,
      on_exceeded: "escalate",
      escalation: { event_type: "budget.alert" },
    },
  }, { invoker: overBudget });
  try {
    await process.start();
    await runUntil(process, "suspended");
    await process.resume();
    await runUntil(process, "suspended");
    const escalations = await entries("budget_escalation");
    assert.deepEqual(escalations.map((e) => e.event), ["no_event_bus", "no_event_bus"]);
    const warnings = sink.records.filter((r) => r.level === "warning" && /no event bus/.test(r.message));
    assert.equal(warnings.length, 1);
    assert.deepEqual(warnings[0].fields, { process: "alone", event_type: "budget.alert" });
  } finally {
    await process.stop();
  }
});

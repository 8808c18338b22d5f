import assert from "node:assert/strict";
import { Logger, memorySink } from "../../log.ts";
import { AgentProcess, runsOf } from "../process.ts";
import type { HookContext } from "../config/mod.ts";
import { type Invoker, RunBlockedError } from "../process_event.ts";
import { testConfig } from "../_test_config.ts";

function event(payload: unknown) {
  return {
    trigger_id: "t-1",
    trigger_type: "event",
    event_id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    payload,
    metadata: {},
  };
}

/** A process whose hooks push every context they get to `seen`, and whose runs end as `invoker` says. */
function hookedProcess(invoker: Invoker) {
  const seen: HookContext[] = [];
  const callback = (context: HookContext) => void seen.push(context);
  const process = new AgentProcess({
    name: "p",
    config: testConfig({
      hooks: [
        { event: "state_change", callback },
        { event: "run_start", callback },
        { event: "run_end", callback },
      ],
    }),
    invoker,
    logger: new Logger("t", { sink: memorySink() }),
  });
  return { process, seen };
}

Deno.test("state_change hooks hear every transition of a start, through its stop", async () => {
  const { process, seen } = hookedProcess(() => Promise.resolve({ response: "ok" }));
  await process.start();
  await process.suspend("maintenance");
  await process.resume();
  const hooks = process.hooks;
  await process.stop();
  await hooks.settled();
  assert.deepEqual(seen.map((c) => `${c.data.from}>${c.data.to}`), [
    "starting>running",
    "running>suspended",
    "suspended>running",
    "running>stopping",
    "stopping>stopped",
  ]);
  assert.equal(seen[1].data.reason, "maintenance");
  assert.equal(seen[0].process, "p");
  assert.equal(seen[0].process_id, process.processId);
  assert.equal(process.hooks.has("state_change"), false, "a stopped process has no hooks");
});

Deno.test("run_start and run_end hooks frame each run with its status, reply and usage", async () => {
  const answers: Invoker[] = [
    (run) => {
      run.report.usage({ input_tokens: 12, output_tokens: 3 });
      return Promise.resolve({ response: "filed" });
    },
    () => Promise.reject(new RunBlockedError("blocked by guardrails")),
  ];
  const { process, seen } = hookedProcess((run) => answers.shift()!(run));
  await process.start();
  const hooks = process.hooks;
  await runsOf(process).deliver(event("a"));
  await runsOf(process).deliver(event("b"));
  while (seen.filter((c) => c.event === "run_end").length < 2) await new Promise((r) => setTimeout(r, 5));
  await process.stop();
  await hooks.settled();
  const runs = seen.filter((c) => c.event !== "state_change");
  assert.deepEqual(runs.map((c) => c.event), ["run_start", "run_end", "run_start", "run_end"]);
  assert.equal(runs[0].data.run_id, runs[1].data.run_id);
  assert.equal(runs[0].data.trigger_type, "event");
  assert.equal(runs[1].data.status, "succeeded");
  assert.equal(runs[1].data.reply, "filed");
  assert.deepEqual(runs[1].data.usage, { input_tokens: 12, output_tokens: 3 });
  assert.equal(runs[3].data.status, "blocked");
  assert.equal(runs[3].data.reply, null);
  assert.equal(runs[3].data.error, "blocked by guardrails");
});

import assert from "node:assert/strict";
import {
  type MissionConfig,
  type MissionConfigInput,
  MissionConfigSchema,
} from "../config/mission_config.ts";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { Logger } from "../../log.ts";
import { isRuntimeError } from "../errors.ts";
import type { JudgeRequest } from "./mission_judge.ts";
import { MissionTracker } from "./mission_tracker.ts";
import { recoverMission } from "./recover_mission.ts";

const HOUR = 3_600_000;

/** A tracker over a config the test changes, a clock the test moves and a real memory journal. */
function setup(input: MissionConfigInput) {
  const memory = new MemoryJournal();
  const state = {
    config: MissionConfigSchema.parse({ enabled: true, objective: "Ship it", ...input }) as MissionConfig,
    now: 1_000_000,
    completed: [] as string[],
    answers: [] as string[],
    requests: [] as JudgeRequest[],
  };
  const journal = new ProcessJournal(memory, { process: "m", level: "full" });
  const host = {
    name: "m",
    processId: "pid-1",
    get config() {
      return { mission: state.config };
    },
    journal,
    suspend: (reason: string) => {
      state.completed.push(`suspend: ${reason}`);
      return Promise.resolve();
    },
    stop: (reason: string) => {
      state.completed.push(`stop: ${reason}`);
      return Promise.resolve();
    },
    resolveReferences: <T>(value: T) => value,
  };
  const logger = new Logger("test", { sink: () => {} });
  const make = () => new MissionTracker(host, { logger, now: () => state.now });
  const tracker = make();
  const judge = (request: JudgeRequest) => {
    state.requests.push(request);
    const answer = state.answers.shift();
    return answer === undefined ? Promise.reject(new Error("no scripted answer")) : Promise.resolve(answer);
  };
  const run = async (reply = "did some work") => {
    const refused = tracker.begin();
    if (refused) return refused;
    await tracker.afterRun({ reply, conversation: [], state: {} }, { judge });
    return undefined;
  };
  const set = (patch: MissionConfigInput) => {
    state.config = MissionConfigSchema.parse({ ...state.config, ...patch });
  };
  const entries = async (type: string) =>
    (await memory.read("m")).filter((entry) => entry.entry_type === type).map((entry) => entry.data);
  return { tracker, state, run, set, entries, make, journal };
}

const verdict = (achieved: boolean, confidence: number, summary = "progress") =>
  JSON.stringify({ achieved, confidence, reasoning: `r${confidence}`, progress_summary: summary });

Deno.test("a mission is pending until its first run, then active", async () => {
  const { tracker, run, state, entries } = setup({ eval_every: 5 });
  assert.equal(tracker.state, "pending");
  assert.equal(tracker.view().activated_at, null);
  assert.equal(await run(), undefined);
  assert.equal(tracker.state, "active");
  assert.equal(tracker.view().activated_at, new Date(state.now).toISOString());
  assert.equal(tracker.view().invocation_count, 1);
  assert.deepEqual(await entries("mission_state"), [
    { from: "pending", to: "active", reason: "first run", mission_reason: null },
  ]);
});

Deno.test("the judge is asked every eval_every successful runs, with eval_model", async () => {
  const { tracker, run, state, set } = setup({ eval_every: 2, eval_model: "openai:judge-1" });
  state.answers.push(verdict(false, 0.9), verdict(false, 0.9));
  await run();
  assert.equal(state.requests.length, 0);
  await run();
  assert.equal(state.requests.length, 1);
  assert.equal(state.requests[0].model, "openai:judge-1");
  set({ eval_every: 1, eval_model: null }); // live change: applies at the next run
  await run();
  assert.equal(state.requests.length, 2);
  assert.equal(state.requests[1].model, null);
  const evaluations = tracker.view().evaluations;
  assert.deepEqual(evaluations.map((e) => [e.evaluation, e.invocation, e.model]), [
    [1, 2, "openai:judge-1"],
    [2, 3, "process"],
  ]);
});

Deno.test("achieved at or above confidence_threshold completes the mission and applies on_complete", async () => {
  const { tracker, run, state, entries } = setup({ confidence_threshold: 0.8, on_complete: "suspend" });
  state.answers.push(verdict(true, 0.79), verdict(true, 0.8, "all done"));
  await run();
  assert.equal(tracker.state, "active", "achieved below the threshold is not enough");
  await run();
  assert.equal(tracker.state, "completed");
  await tracker.idle();
  assert.deepEqual(state.completed, ["suspend: mission completed"]);
  assert.equal(tracker.view().reason, "objective achieved");
  const [first, second] = await entries("mission_evaluation");
  assert.deepEqual(Object.keys(second).sort(), [
    "achieved",
    "confidence",
    "evaluation",
    "invocation",
    "model",
    "progress_summary",
    "reasoning",
    "timestamp",
  ]);
  assert.equal(first.confidence, 0.79);
  assert.equal(second.progress_summary, "all done");
  // Later runs are refused without asking the judge.
  assert.equal(await run(), "mission completed");
  assert.equal(state.requests.length, 2);
  assert.equal(tracker.view().invocation_count, 2);
});

Deno.test("on_complete stop stops; continue lets later runs go on without evaluations", async () => {
  const stop = setup({ on_complete: "stop" });
  stop.state.answers.push(verdict(true, 1));
  await stop.run();
  await stop.tracker.idle();
  assert.deepEqual(stop.state.completed, ["stop: mission completed"]);

  const keep = setup({ on_complete: "continue" });
  keep.state.answers.push(verdict(true, 1));
  await keep.run();
  await keep.tracker.idle();
  assert.deepEqual(keep.state.completed, []);
  assert.equal(await keep.run(), undefined, "the run is not refused");
  assert.equal(keep.state.requests.length, 1, "nothing more is evaluated");
});

Deno.test("a malformed judge answer or a failed judge call is journaled and changes nothing", async () => {
  const { tracker, run, state, entries } = setup({});
  state.answers.push("I think it is done!");
  await run();
  await run(); // no scripted answer: the judge call rejects
  assert.equal(tracker.state, "active");
  assert.deepEqual(tracker.view().evaluations, []);
  const errors = await entries("mission_evaluation_error");
  assert.equal(errors.length, 2);
  assert.equal(errors[0].invocation, 1);
  assert.match(String(errors[0].error), /not JSON/);
  assert.match(String(errors[1].error), /no scripted answer/);
});

Deno.test("timeout_hours fails the mission at the next run, which is refused", async () => {
  const { tracker, run, state, entries } = setup({ timeout_hours: 2, eval_every: 100 });
  await run();
  state.now += 2 * HOUR - 1;
  assert.equal(await run(), undefined);
  state.now += 1;
  assert.equal(await run(), "mission failed");
  assert.equal(tracker.state, "failed");
  assert.equal(tracker.view().reason, "timeout reached");
  assert.ok(
    (await entries("mission_state")).some((e) => e.to === "failed" && /timeout/.test(String(e.reason))),
  );
});

Deno.test("max_invocations fails the mission after that many runs unless the last evaluation achieves it", async () => {
  const failed = setup({ max_invocations: 2, eval_every: 2 });
  failed.state.answers.push(verdict(false, 0.9));
  await failed.run();
  await failed.run();
  assert.equal(failed.tracker.state, "failed");
  assert.equal(failed.tracker.view().reason, "max invocations reached");
  assert.equal(await failed.run(), "mission failed");

  const achieved = setup({ max_invocations: 1, on_complete: "continue" });
  achieved.state.answers.push(verdict(true, 0.95));
  await achieved.run();
  assert.equal(achieved.tracker.state, "completed");
});

Deno.test("operator operations follow the state table and answer MISSION_STATE otherwise", async () => {
  const { tracker, run, state } = setup({ timeout_hours: 1 });
  const code = (f: () => void) => {
    try {
      f();
    } catch (error) {
      if (isRuntimeError(error, "MISSION_STATE")) return error.details.state;
      throw error;
    }
    return "allowed";
  };
  assert.equal(code(() => tracker.fail()), "pending");
  assert.equal(code(() => tracker.pause()), "pending");
  assert.equal(code(() => tracker.resume()), "pending");
  state.answers.push(verdict(false, 0.9));
  await run();
  assert.equal(code(() => tracker.resume()), "active");
  tracker.pause();
  assert.equal(code(() => tracker.pause()), "paused");
  // Paused: runs go on and count, nothing is evaluated and the timeout does not fail it.
  state.now += 2 * HOUR;
  assert.equal(await run(), undefined);
  assert.equal(tracker.view().invocation_count, 2);
  assert.equal(state.requests.length, 1);
  tracker.resume();
  assert.equal(tracker.state, "active");
  tracker.pause();
  tracker.fail();
  assert.equal(tracker.state, "failed");
  assert.equal(tracker.view().reason, "failed by an operator");
  assert.equal(code(() => tracker.fail("again")), "failed");
  assert.equal(code(() => tracker.resume()), "failed");
});

Deno.test("a low-confidence verdict is escalated to the escalation webhook", async () => {
  const received: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    received.push(await request.json());
    return new Response("ok");
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/hook`;
    const { tracker, run, state, entries } = setup({
      confidence_threshold: 0.6,
      escalation: { webhook_url: url, allow_private_network: true },
    });
    state.answers.push(verdict(false, 0.7), verdict(false, 0.3, "stalled"));
    await run();
    await run();
    await tracker.idle();
    assert.equal(received.length, 1, "only the verdict below the threshold is escalated");
    assert.equal(received[0].type, "mission_low_confidence");
    assert.equal(received[0].confidence, 0.3);
    assert.equal(received[0].progress_summary, "stalled");
    assert.equal(received[0].process_name, "m");
    const [escalation] = await entries("mission_escalation");
    assert.equal(escalation.sent, true);
  } finally {
    await server.shutdown();
  }
});

Deno.test("progress survives through the checkpoint and is recovered at deploy", async () => {
  const { tracker, run, state, make, journal } = setup({ eval_every: 1 });
  state.answers.push(verdict(false, 0.9, "half"));
  await run();
  await journal.record("checkpoint", { invocation: 1, mission: tracker.snapshot() });
  await journal.record("checkpoint", { invocation: 2 }); // a checkpoint without a mission
  const after = make();
  assert.equal(await recoverMission(after, await journal.read()), true);
  assert.deepEqual(after.view(), tracker.view());
  assert.equal(after.restore({ state: "weird" }), false);
  assert.equal(after.state, "active");
});

Deno.test("an operator fail journaled after the last checkpoint is replayed at recovery", async () => {
  const { tracker, run, state, make, journal } = setup({ eval_every: 5 });
  await run();
  await journal.record("checkpoint", { invocation: 1, mission: tracker.snapshot() });
  await new Promise((r) => setTimeout(r, 2));
  tracker.fail("no longer needed");
  await new Promise((r) => setTimeout(r, 2)); // the state entry is written in the background
  const after = make();
  assert.equal(await recoverMission(after, await journal.read()), true);
  assert.equal(after.state, "failed");
  assert.equal(after.view().reason, "no longer needed");
  assert.equal(after.view().invocation_count, 1);
  assert.equal(after.view().activated_at, new Date(state.now).toISOString());
});

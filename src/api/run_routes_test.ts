import assert from "node:assert/strict";
import { deploy, testApi, within } from "../../tests/_api_harness.ts";
import { AgentRuntime, type Invoker, type RunProgress } from "../runtime/mod.ts";
import { runsOf } from "../runtime/process.ts";
import { readJsonEvents } from "./client_stream.ts";

/** An invoker that reports one model turn and one tool call, then replies with the instructions it saw. */
const invoker: Invoker = (run) => {
  run.report.text("Hel");
  run.report.text("lo");
  run.report.step("model_turn", { text: "Hello" });
  run.report.usage({ input_tokens: 12, output_tokens: 4 });
  run.report.step("tool_call", { tool: "lookup" });
  if (run.event.payload === "fail") return Promise.reject(new Error("secret internal detail"));
  return Promise.resolve({ response: `instructions: ${run.config.instructions}` });
};

function event(payload: unknown, id = crypto.randomUUID()) {
  return {
    trigger_id: "manual",
    trigger_type: "manual",
    event_id: id,
    timestamp: new Date().toISOString(),
    payload,
    metadata: {},
  };
}

async function settled(runtime: AgentRuntime, name: string, count: number): Promise<void> {
  const process = runtime.get(name)!;
  await within(
    (async () => {
      while (process.runLog.list().filter((r) => r.status !== "running").length < count) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })(),
    5000,
    `${count} runs`,
  );
}

Deno.test("runs are listed newest first with usage and reply, and one run shows its steps", async () => {
  await using api = await testApi({ makeRuntime: (o) => new AgentRuntime({ ...o, invoker }) });
  await deploy(api, "a", { instructions: "first" }, { start: true });
  const process = api.runtime.get("a")!;
  await runsOf(process).deliver(event("ok"));
  await settled(api.runtime, "a", 1);
  await runsOf(process).deliver(event("fail"));
  await settled(api.runtime, "a", 2);
  const list = await api.call("GET", "/api/v1/processes/a/runs");
  assert.equal(list.status, 200);
  assert.equal(list.body.count, 2);
  const [failed, ok] = list.body.runs;
  assert.equal(ok.status, "succeeded");
  assert.equal(ok.reply, "instructions: first");
  assert.deepEqual(ok.usage, { input_tokens: 12, output_tokens: 4 });
  assert.equal(ok.model_turns, 1);
  assert.equal(ok.tool_calls, 1);
  assert.equal(failed.status, "failed");
  assert.equal(failed.error, "run failed", "an internal error's text is never shown");
  const one = await api.call("GET", `/api/v1/processes/a/runs/${ok.run_id}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.steps.map((s: { type: string }) => s.type), ["model_turn", "tool_call"]);
  assert.equal((await api.call("GET", "/api/v1/processes/a/runs/nope")).status, 404);
  assert.equal((await api.call("GET", "/api/v1/processes/a/runs?limit=1")).body.count, 1);
  assert.equal((await api.call("GET", "/api/v1/processes/a/runs?limit=0")).body.error.code, "INVALID_FIELD");
  assert.equal((await api.call("GET", "/api/v1/processes/a/runs?x=1")).body.error.code, "UNKNOWN_FIELD");
  const status = await api.call("GET", "/api/v1/processes/a");
  assert.equal(status.body.runs.usage.today.runs, 2);
  assert.equal(status.body.runs.usage.total.input_tokens, 24);
});

Deno.test("PATCH instructions is used by the next run and refuses bad bodies without changing anything", async () => {
  await using api = await testApi({ makeRuntime: (o) => new AgentRuntime({ ...o, invoker }) });
  await deploy(api, "a", { instructions: "first" }, { start: true });
  for (
    const [json, code] of [
      [{}, "MISSING_FIELD"],
      [{ instructions: "" }, "INVALID_FIELD"],
      [{ instructions: 5 }, "INVALID_FIELD"],
      [{ instructions: "x", extra: 1 }, "UNKNOWN_FIELD"],
    ] as const
  ) {
    const answer = await api.call("PATCH", "/api/v1/processes/a/instructions", { json });
    assert.equal(answer.status, 422, JSON.stringify(json));
    assert.equal(answer.body.error.code, code);
  }
  const patched = await api.call("PATCH", "/api/v1/processes/a/instructions", {
    json: { instructions: "second" },
  });
  assert.deepEqual(patched.body, {
    name: "a",
    instructions_updated: true,
    live: true,
    effective_from: "next_invocation",
  });
  const process = api.runtime.get("a")!;
  await runsOf(process).deliver(event("ok"));
  await settled(api.runtime, "a", 1);
  assert.equal(process.runLog.list()[0].reply, "instructions: second");
  await api.call("POST", "/api/v1/processes/a/stop");
  const stopped = await api.call("PATCH", "/api/v1/processes/a/instructions", {
    json: { instructions: "third" },
  });
  assert.equal(stopped.body.effective_from, "next_start");
  await api.call("POST", "/api/v1/processes/a/start");
  await runsOf(process).deliver(event("ok"));
  await settled(api.runtime, "a", 2);
  assert.equal(process.runLog.list()[0].reply, "instructions: third");
});

Deno.test("the run stream sends run_started, text, steps and run_ended as they happen", async () => {
  await using api = await testApi({ makeRuntime: (o) => new AgentRuntime({ ...o, invoker }) });
  await deploy(api, "a", {}, { start: true });
  const controller = new AbortController();
  const response = await api.app.fetch(
    new Request("http://127.0.0.1:9100/api/v1/processes/a/runs/events", {
      headers: { authorization: "Bearer test-token-7f3a9c" },
      signal: controller.signal,
    }),
    { remoteAddr: "127.0.0.1" },
  );
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const seen: RunProgress[] = [];
  const reading = (async () => {
    for await (const progress of readJsonEvents<RunProgress>(response.body!)) {
      seen.push(progress);
      if (progress.type === "run_ended") break;
    }
  })();
  await runsOf(api.runtime.get("a")!).deliver(event("ok"));
  await within(reading, 5000, "the stream");
  controller.abort();
  assert.deepEqual(seen.map((p) => p.type), ["run_started", "text", "text", "step", "step", "run_ended"]);
  const texts = seen.flatMap((p) => p.type === "text" ? [p.delta] : []);
  assert.equal(texts.join(""), "Hello");
});

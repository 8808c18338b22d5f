import assert from "node:assert/strict";
import type { ChatMessage, ModelClient, ModelRequest, ModelTurn } from "../models/mod.ts";
import { type LoopObserver, runToolLoop, type ToolBox } from "./tool_loop.ts";

/** A model answering from a script, recording what it was sent. */
function scripted(turns: Array<Partial<ModelTurn>>): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    provider: "test",
    model: "scripted",
    requests,
    complete(request) {
      requests.push({ ...request, messages: [...request.messages] });
      const turn = turns.shift();
      if (!turn) throw new Error("script exhausted");
      return Promise.resolve({
        text: "",
        toolCalls: [],
        usage: { input_tokens: 5, output_tokens: 2 },
        stopReason: "stop",
        ...turn,
      });
    },
  };
}

function observer(): LoopObserver & { events: string[] } {
  const events: string[] = [];
  return {
    events,
    turn: (step, turn) => events.push(`turn ${step} ${turn.toolCalls.length}`),
    retry: () => events.push("retry"),
    toolCall: (call) => events.push(`call ${call.name}`),
    toolResult: (call, outcome) => events.push(`result ${call.name} ${outcome.isError}`),
    text: () => {},
  };
}

const TOOLS: ToolBox & { calls: string[] } = {
  calls: [],
  specs: () => [{ name: "lookup", description: "d", inputSchema: { type: "object" } }],
  async call(name, args) {
    this.calls.push(`${name}:${JSON.stringify(args)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (args.fail) return { content: "lookup failed: no such order", isError: true };
    return { content: `found ${args.id}`, isError: false };
  },
};

Deno.test("tool calls of one turn run in parallel and their results go back in order", async () => {
  TOOLS.calls.length = 0;
  const client = scripted([
    {
      text: "Looking.",
      toolCalls: [
        { id: "c1", name: "lookup", arguments: '{"id":1}' },
        { id: "c2", name: "lookup", arguments: '{"id":2,"fail":true}' },
      ],
      stopReason: "tool_calls",
    },
    { text: "Order 1 found; order 2 failed." },
  ]);
  const seen = observer();
  const result = await runToolLoop({
    client,
    messages: [{ role: "user", content: "go" }],
    tools: TOOLS,
    maxSteps: 5,
    stream: false,
    signal: new AbortController().signal,
    observer: seen,
  });
  assert.equal(result.reply, "Order 1 found; order 2 failed.");
  assert.deepEqual(result.usage, { input_tokens: 10, output_tokens: 4 });
  assert.equal(result.steps, 2);
  assert.deepEqual(TOOLS.calls, ['lookup:{"id":1}', 'lookup:{"id":2,"fail":true}']);
  const second = client.requests[1].messages as ChatMessage[];
  assert.deepEqual(second.slice(1).map((m) => m.role), ["assistant", "tool", "tool"]);
  assert.deepEqual(second.slice(2).map((m) => m.role === "tool" && [m.toolCallId, m.isError]), [
    ["c1", false],
    ["c2", true],
  ]);
  assert.deepEqual(
    seen.events.slice(0, 3),
    ["turn 1 2", "call lookup", "call lookup"],
    "both calls start first",
  );
  assert.deepEqual(seen.events.slice(3, 5).sort(), ["result lookup false", "result lookup true"]);
  assert.equal(seen.events[5], "turn 2 0");
});

Deno.test("bad tool arguments go back to the model as an error and nothing is called", async () => {
  TOOLS.calls.length = 0;
  const client = scripted([
    { toolCalls: [{ id: "c1", name: "lookup", arguments: "[1,2" }] },
    { text: "Sorry." },
  ]);
  await runToolLoop({
    client,
    messages: [{ role: "user", content: "go" }],
    tools: TOOLS,
    maxSteps: 5,
    stream: false,
    signal: new AbortController().signal,
    observer: observer(),
  });
  assert.deepEqual(TOOLS.calls, []);
  const tool = client.requests[1].messages.at(-1)!;
  assert.equal(tool.role === "tool" && tool.isError, true);
});

Deno.test("the step cap ends the loop with the last assistant text", async () => {
  const call = { id: "c", name: "lookup", arguments: '{"id":1}' };
  const client = scripted([
    { text: "first", toolCalls: [call] },
    { text: "", toolCalls: [call] },
    { text: "never" },
  ]);
  const result = await runToolLoop({
    client,
    messages: [{ role: "user", content: "go" }],
    tools: TOOLS,
    maxSteps: 2,
    stream: false,
    signal: new AbortController().signal,
    observer: observer(),
  });
  assert.deepEqual([result.reply, result.steps, result.capped], ["first", 2, true]);
  assert.equal(client.requests.length, 2);
});

Deno.test("an aborted run stops before the next model turn", async () => {
  const controller = new AbortController();
  const client = scripted([{ toolCalls: [{ id: "c", name: "lookup", arguments: "{}" }] }, { text: "x" }]);
  const tools: ToolBox = {
    specs: TOOLS.specs,
    call: () => {
      controller.abort(new Error("stopped"));
      return Promise.resolve({ content: "late", isError: false });
    },
  };
  await assert.rejects(
    runToolLoop({
      client,
      messages: [{ role: "user", content: "go" }],
      tools,
      maxSteps: 5,
      stream: false,
      signal: controller.signal,
      observer: observer(),
    }),
    /stopped/,
  );
  assert.equal(client.requests.length, 1);
});

Deno.test("beforeTurn ends the loop without the turn and says why (budget, issue 13)", async () => {
  const client = scripted([
    { text: "looking", toolCalls: [{ id: "c1", name: "lookup", arguments: '{"id":1}' }] },
    { text: "never sent" },
  ]);
  const asked: number[] = [];
  const result = await runToolLoop({
    client,
    messages: [{ role: "user", content: "go" }],
    tools: TOOLS,
    maxSteps: 5,
    stream: false,
    signal: new AbortController().signal,
    observer: observer(),
    beforeTurn: (step) => {
      asked.push(step);
      return step === 2 ? "budget exceeded: max_llm_turns_per_run" : null;
    },
  });
  assert.deepEqual(asked, [1, 2]);
  assert.equal(client.requests.length, 1);
  assert.deepEqual(
    { reply: result.reply, steps: result.steps, capped: result.capped, stoppedBy: result.stoppedBy },
    { reply: "looking", steps: 1, capped: false, stoppedBy: "budget exceeded: max_llm_turns_per_run" },
  );
});

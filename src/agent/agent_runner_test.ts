import assert from "node:assert/strict";
import { type ProcessEvent } from "../runtime/mod.ts";
import { runsOf } from "../runtime/process.ts";
import { startModelServer } from "../models/testing/mod.ts";
import { createToolServer, toFetchHandler } from "../mcp/mod.ts";
import { agentRuntime, testConfig } from "./_test_runtime.ts";

function event(payload: unknown): ProcessEvent {
  return {
    trigger_id: "manual",
    trigger_type: "manual",
    event_id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    payload,
    metadata: {},
  };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test("stopping a process aborts the model request in flight and the run says so", async () => {
  await using model = startModelServer({ delayMs: 10_000 });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const process = await runtime.deploy("slow", testConfig({ model: "openai-compatible:m" }), {
      start: true,
    });
    await runsOf(process).deliver(event("hello"));
    await until(() => model.requests.length === 1, "the model request");
    const began = performance.now();
    await process.stop();
    assert.ok(performance.now() - began < 2_000, "the stop does not wait for the model");
    const [run] = process.runLog.list();
    assert.equal(run.status, "failed");
    assert.equal(run.error, "the process stopped during the run");
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("with a file journal, context and conversation come back after a runtime restart", async () => {
  await using model = startModelServer({
    respond: (request) =>
      request.messages.at(-1)!.role === "user"
        ? { toolCalls: [{ name: "set_context", arguments: { values: { seen: 1 } } }] }
        : { text: "noted" },
  });
  const dataDir = await Deno.makeTempDir();
  const settings = testConfig({ model: "openai-compatible:m", journal: { level: "checkpoint" } });
  try {
    const first = agentRuntime(model.url, dataDir);
    const process = await first.deploy("keeper", settings, { start: true });
    await runsOf(process).deliver(event("remember this"));
    await until(() => process.runLog.list()[0]?.status === "succeeded", "the run");
    await first.close();

    const second = agentRuntime(model.url, dataDir);
    try {
      const again = await second.deploy("keeper", settings, { start: true });
      assert.deepEqual(again.context.view().state, { seen: 1 });
      assert.deepEqual(again.conversation.messages().map((m) => m.role), ["user", "assistant"]);
      assert.equal(again.conversation.messages()[1].content, "noted");
      await runsOf(again).deliver(event("and now?"));
      await until(() => again.runLog.list()[0]?.status === "succeeded", "the next run");
      const next = model.requests[2].messages;
      assert.deepEqual(next.map((m) => m.role), ["system", "user", "assistant", "user"]);
      assert.equal(next[0].content, '[Context State] {"seen":1}');
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a run past run_timeout fails with the runtime's words", async () => {
  await using model = startModelServer({ delayMs: 5_000 });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const process = await runtime.deploy(
      "late",
      testConfig({ model: "openai-compatible:m", run_timeout: 0.2 }),
      {
        start: true,
      },
    );
    await runsOf(process).deliver(event("hello"));
    await until(() => process.runLog.list()[0]?.status === "failed", "the timeout");
    assert.equal(process.runLog.list()[0].error, "the run took longer than run_timeout (0.2 s)");
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("declarative guardrails block a payload with a credential before the model sees it", async () => {
  await using model = startModelServer();
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const process = await runtime.deploy(
      "guarded",
      testConfig({ model: "openai-compatible:m", guardrails: { detectors: ["credentials"] } }),
      { start: true },
    );
    await runsOf(process).deliver(event({ note: "key AKIAIOSFODNN7EXAMPLE for the bucket" }));
    await until(() => process.runLog.list()[0]?.status === "blocked", "the block");
    await runsOf(process).deliver(event({ note: "ship order 7" }));
    await until(() => process.runLog.list()[0]?.status === "succeeded", "the clean run");
    assert.equal(model.requests.length, 1);
    assert.equal(runsOf(process).deadLetters.size, 1);
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("memories the agent stored come back in the prompt of a later run", async () => {
  await using model = startModelServer({
    respond: (request) => {
      const last = request.messages.at(-1)!;
      if (last.role === "user" && last.content.includes("remember")) {
        return { toolCalls: [{ name: "remember", arguments: { text: "Alice prefers invoices by e-mail" } }] };
      }
      return { text: "ok" };
    },
  });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const process = await runtime.deploy(
      "memo",
      testConfig({ model: "openai-compatible:m", context: { memory_provider: "in_memory" } }),
      { start: true },
    );
    await runsOf(process).deliver(event("remember how Alice wants invoices"));
    await until(() => process.runLog.list()[0]?.status === "succeeded", "the first run");
    await runsOf(process).deliver(event("send Alice her invoices"));
    await until(
      () => process.runLog.list().length === 2 && process.runLog.list()[0].status === "succeeded",
      "run 2",
    );
    const prompt = model.requests.at(-1)!.messages;
    const memories = prompt.find((m) => m.role === "system" && m.content.startsWith("[Relevant Memories]"));
    assert.match(memories?.content ?? "", /Alice prefers invoices by e-mail/);
    assert.ok(model.requests[0].tools.includes("recall"));
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a run with an MCP tool call leaves no timer, listener or connection once the process stops", async () => {
  const server = createToolServer({ name: "t" }).tool("ping", { description: "Ping" }, () => "pong");
  await server.startup();
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, toFetchHandler(server));
  await using model = startModelServer({
    respond: (request) =>
      request.messages.at(-1)!.role === "user"
        ? { toolCalls: [{ name: "t__ping", arguments: {} }] }
        : { text: "ok" },
  });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const process = await runtime.deploy(
      "pinger",
      testConfig({
        model: "openai-compatible:m",
        servers: { t: { url: `http://127.0.0.1:${http.addr.port}/mcp` } },
      }),
      { start: true },
    );
    await runsOf(process).deliver(event("go"));
    await until(() => process.runLog.list()[0]?.status === "succeeded", "the run");
    assert.equal(process.runLog.list()[0].tool_calls, 1);
  } finally {
    await runtime.close();
    await http.shutdown();
    await server.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});

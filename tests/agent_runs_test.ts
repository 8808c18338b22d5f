import assert from "node:assert/strict";
import { join } from "node:path";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import type { ChatMessage } from "../src/models/mod.ts";
import type { RunProgress } from "../src/runtime/mod.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { fireWebhook, startOrdersMcp, startRuntime, until } from "./_agent_harness.ts";

const PLANTED = `plant-${crypto.randomUUID()}`;

/** The scripted model: tools on the trigger, then a reply quoting the secret it read. */
function respond(request: RecordedRequest): ScriptedReply {
  const last = request.messages.at(-1)!;
  if (last.role === "user") {
    const id = Number(/"order_id": (\d+)/.exec(last.content)?.[1] ?? 0);
    return {
      text: "Let me look.",
      toolCalls: [
        { name: "orders__lookup_order", arguments: { id } },
        { name: "set_context", arguments: { values: { last_order: id } } },
        { name: "read_secret", arguments: { name: "API_TOKEN" } },
        { name: "orders__fail_always", arguments: {} },
      ],
      usage: { input_tokens: 100, output_tokens: 20 },
    };
  }
  const results = request.messages.filter((m): m is Extract<ChatMessage, { role: "tool" }> =>
    m.role === "tool"
  )
    .map((m) => m.content);
  return { text: `Done. ${results.join(" | ")}`, usage: { input_tokens: 150, output_tokens: 30 } };
}

async function* files(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* files(path);
    else if (entry.isFile) yield path;
  }
}

Deno.test({
  name: "a webhook event runs the agent end to end: prompt blocks, MCP and built-in tools, reply, usage, " +
    "context, instructions patch, and no secret anywhere",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  await using mcp = await startOrdersMcp();
  const port = freePort();
  await using runtime = await startRuntime([
    "--data-dir",
    join(dir.path, "state"),
    "--allow-env-var",
    "PLANTED",
  ], {
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: "test-key",
    PLANTED,
  });
  const { client } = runtime;
  const deployed = await client.deploy("orders", {
    model: "openai:gpt-test",
    instructions: "You handle orders.",
    servers: { orders: { url: mcp.url, bearer_token: "${secret:MCP_TOKEN}" } },
    secrets: { enabled: true, secrets: { API_TOKEN: "${PLANTED}", MCP_TOKEN: "mcp-token-1" } },
    context: { writable_keys: ["last_order"], initial_state: { region: "eu" } },
    journal: { level: "full" },
    triggers: [{ type: "webhook", webhook_path: "/orders", webhook_port: port }],
  }, { start: true });
  assert.equal(deployed.state, "running");

  await fireWebhook(port, "/orders", { order_id: 42 });
  await until("the first run", async () => (await client.listRuns("orders")).runs[0]?.status === "succeeded");

  const [first, second] = model.requests;
  assert.equal(first.api, "responses");
  assert.equal(first.stream, true, "streaming is on by default");
  assert.equal(first.headers.authorization, "Bearer test-key");
  // The Responses API takes the system blocks, in order, as one `instructions` text.
  assert.equal(first.body.instructions, 'You handle orders.\n\n[Context State] {"region":"eu"}');
  assert.deepEqual(first.messages.map((m) => m.role), ["system", "user"]);
  assert.match(
    first.messages[1].content,
    /^\[Trigger: webhook\] trigger_id=webhook-\S+ event_id=\S+ at=\S+\n/,
  );
  assert.match(
    first.messages[1].content,
    /<untrusted-trigger-payload-[0-9a-f]{12}>\n\{\n {2}"order_id": 42\n\}\n/,
  );
  assert.deepEqual(first.tools.sort(), [
    "orders__fail_always",
    "orders__lookup_order",
    "read_secret",
    "set_context",
  ]);
  const toolResults = second.messages.filter((m) => m.role === "tool").map((m) => m.content);
  assert.equal(toolResults.length, 4);
  assert.ok(toolResults.includes("order 42: shipped on 2026-11-20"));
  assert.ok(toolResults.includes(PLANTED), "the model reads the secret with the built-in tool");
  assert.deepEqual(mcp.calls, ["lookup_order:42", "fail_always"]);
  assert.deepEqual([...mcp.authorizations], ["Bearer mcp-token-1"]);

  const [run] = (await client.listRuns("orders")).runs;
  assert.deepEqual(run.usage, { input_tokens: 250, output_tokens: 50 });
  assert.equal(run.model_turns, 2);
  assert.equal(run.tool_calls, 4);
  assert.ok(run.reply?.startsWith("Done. "));
  assert.ok(run.reply?.includes("[REDACTED]"), "the secret in the reply is redacted");
  const detail = await client.getRun("orders", run.run_id);
  const calls = Array(4).fill("tool_call");
  const results = Array(4).fill("tool_result");
  assert.deepEqual(detail.steps.map((s) => s.type), ["model_turn", ...calls, ...results, "model_turn"]);
  const failed = detail.steps.find((s) => s.type === "tool_result" && s.data.tool === "orders__fail_always");
  assert.equal(failed?.data.is_error, true, "a failing tool goes back to the model, the run goes on");
  const status = await client.getProcess("orders");
  assert.equal(status.runs.usage.today.input_tokens, 250);

  const context = await client.getContext("orders");
  assert.deepEqual(context.state, { region: "eu", last_order: 42 });

  const journal = await client.getJournal("orders", { limit: 500 });
  const types = journal.entries.map((e) => e.entry_type);
  for (
    const type of [
      "trigger_event",
      "model_turn",
      "tool_call",
      "tool_result",
      "invocation_result",
      "checkpoint",
    ]
  ) {
    assert.ok(types.includes(type), `journal has ${type}`);
  }
  const result = journal.entries.find((e) => e.entry_type === "invocation_result")!;
  assert.deepEqual(result.data.usage, { input_tokens: 250, output_tokens: 50 });

  await client.updateInstructions("orders", "You now handle refunds.");
  const watching = new AbortController();
  const progress: RunProgress[] = [];
  const streaming = (async () => {
    for await (const item of client.streamRuns("orders", { signal: watching.signal })) {
      progress.push(item);
      if (item.type === "run_ended") return;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await fireWebhook(port, "/orders", { order_id: 7 });
  await streaming;
  watching.abort();
  const kinds = new Set(progress.map((item) => item.type));
  assert.deepEqual([...kinds].sort(), ["run_ended", "run_started", "step", "text"]);
  const streamed = progress.flatMap((item) => item.type === "text" ? [item.delta] : []).join("");
  assert.ok(streamed.startsWith("Let me look.Done. "), streamed.slice(0, 80));
  assert.ok(streamed.includes("[REDACTED]") && !streamed.includes(PLANTED), "streamed text is redacted");
  await until("the second run", async () =>
    (await client.listRuns("orders")).runs.length === 2 &&
    (await client.listRuns("orders")).runs[0].status === "succeeded");
  const third = model.requests[2];
  assert.equal(
    third.body.instructions,
    'You now handle refunds.\n\n[Context State] {"region":"eu","last_order":42}',
  );
  assert.deepEqual(third.messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
  assert.match(third.messages[1].content, /"order_id": 42/, "the earlier trigger is kept");
  assert.ok(third.messages[2].content.startsWith("Done. "));
  assert.ok(!third.messages[2].content.includes(PLANTED), "the kept conversation is redacted");

  assert.ok(mcp.open() > 0, "the MCP connection is open while the process runs");
  await client.stopProcess("orders");
  await until("no MCP connection left", () => mcp.open() === 0, 5_000);

  await client.getJournal("orders", { limit: 500 });
  await client.listSecrets("orders");
  await runtime[Symbol.asyncDispose]();
  const everything = [...runtime.bodies, ...runtime.cli.stderr, ...runtime.cli.stdout];
  for (const text of everything) assert.ok(!text.includes(PLANTED), `leaked: ${text.slice(0, 200)}`);
  let journalFiles = 0;
  for await (const path of files(join(dir.path, "state"))) {
    journalFiles++;
    assert.ok(!(await Deno.readTextFile(path)).includes(PLANTED), `leaked in ${path}`);
  }
  assert.ok(journalFiles > 0);
});

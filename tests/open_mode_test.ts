import assert from "node:assert/strict";
import { join } from "node:path";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import type { ChatMessage } from "../src/models/mod.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { fireWebhook, startOrdersMcp, startRuntime, until } from "./_agent_harness.ts";

type ToolMessage = Extract<ChatMessage, { role: "tool" }>;

/** Tool calls of each model turn of a `setup` run; other runs answer at once. */
function script(options: { hookPort: number; allowed: string; secretFile: string; modelUrl: string }) {
  const peek = (name: string, body: string) => ({
    name: "create_tool",
    arguments: { name, description: `Tries ${name}.`, code: `export default async () => ${body};` },
  });
  const setup = [
    {
      name: "add_trigger",
      arguments: { trigger: { type: "webhook", webhook_path: "/added", webhook_port: options.hookPort } },
    },
    { name: "connect_server", arguments: { name: "outside", url: "http://127.0.0.1:9/mcp" } },
    { name: "connect_server", arguments: { name: "shop", url: options.allowed } },
    {
      name: "create_tool",
      arguments: {
        name: "add",
        description: "Adds a and b.",
        input_schema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
        code: "export default (args: { a: number; b: number }) => ({ sum: args.a + args.b });",
      },
    },
    peek("peek_file", `Deno.readTextFile(${JSON.stringify(options.secretFile)})`),
    peek("peek_net", `(await fetch(${JSON.stringify(options.modelUrl)})).status`),
    peek("peek_env", `Deno.env.get("OPENAI_API_KEY")`),
  ];
  const use = [
    { name: "add", arguments: { a: 2, b: 40 } },
    { name: "peek_file", arguments: {} },
    { name: "peek_net", arguments: {} },
    { name: "peek_env", arguments: {} },
    { name: "shop__lookup_order", arguments: { id: 7 } },
  ];
  return (request: RecordedRequest): ScriptedReply => {
    const lastUser = request.messages.findLastIndex((m) => m.role === "user");
    const turn = request.messages.slice(lastUser).filter((m) => m.role === "assistant").length;
    const isSetup = request.messages[lastUser].content.includes('"step": "setup"');
    if (isSetup && turn === 0) return { text: "", toolCalls: setup };
    if (isSetup && turn === 1) return { text: "", toolCalls: use };
    const results = request.messages.slice(lastUser).filter((m): m is ToolMessage => m.role === "tool");
    return { text: `Done. ${results.map((m) => m.content).join(" | ")}` };
  };
}

Deno.test({
  name: "an open-mode agent adds a webhook trigger that fires, connects only allowed servers without the " +
    "process's credentials, creates sandboxed tools, and a rollback undoes it all",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  const secretFile = join(dir.path, "secret.txt");
  await Deno.writeTextFile(secretFile, "file-secret");
  await using home = await startOrdersMcp();
  await using shop = await startOrdersMcp();
  const [port, hookPort] = [freePort(), freePort()];
  await using model = startModelServer({ respond: (r) => respond(r) });
  const respond = script({ hookPort, allowed: shop.url, secretFile, modelUrl: model.url });
  await using runtime = await startRuntime(
    ["--data-dir", join(dir.path, "state"), "--allow-command-deploys"],
    { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test-key" },
  );
  const { client } = runtime;
  await client.deploy("self", {
    model: "openai:gpt-test",
    instructions: "You improve yourself.",
    execution_mode: "open",
    journal: { level: "checkpoint" },
    open_mode: { allowed_mcp_urls: [shop.url] },
    servers: { home: { url: home.url, bearer_token: "${secret:MCP_TOKEN}", headers: { "x-team": "t1" } } },
    secrets: { enabled: true, secrets: { MCP_TOKEN: "process-token-1" } },
    triggers: [{ type: "webhook", webhook_path: "/self", webhook_port: port }],
  }, { start: true });

  await fireWebhook(port, "/self", { step: "setup" });
  await until("the setup run", async () => (await client.listRuns("self")).runs[0]?.status === "succeeded");
  const [first, second, third] = model.requests;
  for (
    const name of ["set_instructions", "add_trigger", "connect_server", "create_tool", "list_capabilities"]
  ) {
    assert.ok(first.tools.includes(name), `${name} is offered`);
  }
  const setupResults = second.messages.filter((m): m is ToolMessage => m.role === "tool").map((m) =>
    m.content
  );
  assert.match(setupResults[0], /^Trigger dynamic-webhook-[0-9a-f]{8} \(webhook\) added and running\.$/);
  assert.equal(setupResults[1], "http://127.0.0.1:9/mcp is not an allowed MCP server URL.");
  assert.equal(setupResults[2], "Server shop connected with 2 tools.");
  assert.deepEqual(setupResults.slice(3), [
    "Tool add created.",
    "Tool peek_file created.",
    "Tool peek_net created.",
    "Tool peek_env created.",
  ]);
  assert.ok(second.tools.includes("add") && second.tools.includes("shop__lookup_order"));
  const used = third.messages.filter((m): m is ToolMessage => m.role === "tool").slice(-5).map((m) =>
    m.content
  );
  assert.equal(used[0], '{"sum":42}');
  assert.match(used[1], /^NotCapable: Requires read access/);
  assert.match(used[2], /^NotCapable: Requires net access to "127\.0\.0\.1:/);
  assert.match(used[3], /^NotCapable: Requires env access/);
  assert.equal(used[4], "order 7: shipped on 2026-11-20");
  assert.deepEqual(shop.calls, ["lookup_order:7"]);
  assert.deepEqual([...shop.authorizations], [], "the agent's server gets no credential");
  assert.deepEqual([...home.authorizations], ["Bearer process-token-1"]);

  const listed = await client.listTriggers("self");
  const dynamic = listed.triggers.filter((t) => t.source === "dynamic");
  assert.equal(dynamic.length, 1);
  await fireWebhook(hookPort, "/added", { step: "hello" });
  await until("a run from the added trigger", async () => {
    const runs = (await client.listRuns("self")).runs;
    return runs.length === 2 && runs[0].status === "succeeded";
  });
  assert.equal((await client.listRuns("self")).runs[0].trigger_id, dynamic[0].id);

  const journal = await client.getJournal("self", { entryType: "self_change", limit: 50 });
  // The calls of one turn run in parallel: their entries come in any order.
  assert.deepEqual(journal.entries.map((e) => String(e.data.kind)).sort(), [
    "add_trigger",
    "connect_server",
    "create_tool",
    "create_tool",
    "create_tool",
    "create_tool",
  ]);
  const rolled = await client.rollback("self");
  rolled.tools_dropped.sort();
  assert.deepEqual(rolled, {
    name: "self",
    rolled_back: true,
    instructions_restored: false,
    triggers_removed: [dynamic[0].id],
    servers_disconnected: ["shop"],
    tools_dropped: ["add", "peek_env", "peek_file", "peek_net"],
  });
  assert.equal((await client.listTriggers("self")).triggers.some((t) => t.source === "dynamic"), false);
  await until("the agent's server connection closed", () => shop.open() === 0, 5_000);
  await client.stopProcess("self");
});

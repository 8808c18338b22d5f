import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RecordedRequest, type ScriptedReply, startModelServer } from "../src/models/testing/mod.ts";
import { tempDir } from "./_cli_harness.ts";
import { freePort } from "./_ports.ts";
import { startOrdersMcp, startRuntime, until } from "./_agent_harness.ts";
import type { CommandHookInput, HookEvent } from "../src/runtime/mod.ts";

const SCRIPT = fileURLToPath(new URL("./fixtures/hook_script.ts", import.meta.url));

/** A command hook running the fixture script (in its own Deno, allowed to write only `dir`). */
function hook(
  event: HookEvent,
  dir: string,
  mode: string,
  arg: string,
  extra: Partial<CommandHookInput> = {},
): CommandHookInput {
  return {
    event,
    command: Deno.execPath(),
    args: ["run", `--allow-write=${dir}`, "--allow-env", SCRIPT, mode, arg],
    ...extra,
  };
}

/** The model asks for two MCP tools, then replies with what the tools answered. */
function respond(request: RecordedRequest): ScriptedReply {
  if (request.messages.at(-1)!.role === "user") {
    return {
      text: "Checking.",
      toolCalls: [
        { name: "orders__lookup_order", arguments: { id: 42 } },
        { name: "orders__fail_always", arguments: {} },
      ],
      usage: { input_tokens: 10, output_tokens: 5 },
    };
  }
  const results = request.messages.filter((m) => m.role === "tool").map((m) => m.content);
  return { text: `Done. ${results.join(" | ")}`, usage: { input_tokens: 20, output_tokens: 7 } };
}

Deno.test({
  name: "command hooks over the real CLI: a pre_tool_call hook refuses a tool the MCP server then never " +
    "sees, and run and state hooks write their events in order without the runtime's environment",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using dir = await tempDir();
  await using model = startModelServer({ respond });
  await using mcp = await startOrdersMcp();
  const port = freePort();
  const events = join(dir.path, "events.txt");
  const starts = join(dir.path, "starts.jsonl");
  await using runtime = await startRuntime([
    "--data-dir",
    join(dir.path, "state"),
    "--allow-command-deploys",
  ], { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "sk-runtime-only" });
  const { client } = runtime;
  const deployed = await client.deploy("orders", {
    model: "openai:gpt-test",
    instructions: "You handle orders.",
    servers: { orders: { url: mcp.url } },
    journal: { level: "checkpoint" },
    triggers: [{ type: "webhook", webhook_path: "/orders", webhook_port: port }],
    hooks: [
      hook("pre_tool_call", dir.path, "deny-exit", "lookups are paused", { tools: ["orders__lookup_order"] }),
      hook("run_start", dir.path, "record", starts),
      hook("run_start", dir.path, "line", events),
      hook("run_end", dir.path, "line", events),
      hook("state_change", dir.path, "line", events),
    ],
  }, { start: true });
  assert.equal(deployed.state, "running");

  const fired = await fetch(`http://127.0.0.1:${port}/orders`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ order_id: 42 }),
  });
  assert.equal(fired.status, 202, await fired.text());
  await until("the run", async () => (await client.listRuns("orders")).runs[0]?.status === "succeeded");

  const toolResults = model.requests[1].messages.filter((m) => m.role === "tool").map((m) => m.content);
  assert.ok(
    toolResults.includes("The call was refused by a hook: lookups are paused"),
    JSON.stringify(toolResults),
  );
  assert.deepEqual(mcp.calls, ["fail_always"], "the refused call never reaches the MCP server");

  const [run] = (await client.listRuns("orders")).runs;
  assert.equal((await client.stopProcess("orders")).state, "stopped");
  const read = async () => (await Deno.readTextFile(events).catch(() => "")).trim().split("\n");
  await until(
    "the stop's state_change hook",
    async () => (await read()).at(-1)?.includes('"to":"stopped"') ?? false,
  );
  const lines = (await read()).map((line) => {
    const space = line.indexOf(" ");
    return { event: line.slice(0, space), data: JSON.parse(line.slice(space + 1)) };
  });
  assert.deepEqual(lines.map((l) => l.event === "state_change" ? `${l.data.from}>${l.data.to}` : l.event), [
    "starting>running",
    "run_start",
    "run_end",
    "running>stopping",
    "stopping>stopped",
  ]);
  const end = lines[2].data;
  assert.equal(end.run_id, run.run_id);
  assert.equal(end.status, "succeeded");
  assert.equal(end.reply, run.reply);
  assert.deepEqual(end.usage, { input_tokens: 30, output_tokens: 12 });

  const [start] = (await Deno.readTextFile(starts)).trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(start.input.event, "run_start");
  assert.equal(start.input.process, "orders");
  assert.equal(start.input.data.trigger_type, "webhook");
  assert.equal(start.env.OPENAI_API_KEY, undefined, "the hook does not get the runtime's model key");
  assert.equal(start.env.OPENAI_BASE_URL, undefined);

  const journal = await client.getJournal("orders", { entryType: "hook" });
  assert.deepEqual(journal.entries.map((e) => [e.data.event, e.data.outcome]), [["pre_tool_call", "denied"]]);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { AgentProcess, parseProcessConfig, type ProcessPartFactory } from "../../runtime/mod.ts";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { createTriggersPart, listTriggers } from "../../triggers/mod.ts";
import { LoopbackServer, sampleServer } from "../mcp/_test_servers.ts";
import type { ToolBox } from "../tool_loop.ts";
import { Logger, memorySink } from "../../log.ts";
import { attachOpenMode, OpenMode, openModeOf } from "./open_mode.ts";
import { withOpenMode } from "./meta_tools.ts";

const BASE: ToolBox = {
  specs: () => [{ name: "remember", description: "", inputSchema: { type: "object" } }],
  call: (name) => Promise.resolve({ content: `base ${name}`, isError: false }),
};

/** A started open-mode process with the real triggers part; `tools()` is a run's tool box. */
async function openProcess(config: Record<string, unknown> = {}) {
  const dataDir = await Deno.makeTempDir();
  const journal = new ProcessJournal(new MemoryJournal(), { process: "p", level: "checkpoint" });
  const agent: ProcessPartFactory = (ctx) => {
    const part = {
      name: "agent",
      open: undefined as OpenMode | undefined,
      start() {
        part.open = new OpenMode(ctx, { toolTimeoutMs: 2_000 });
        attachOpenMode(part, part.open);
        return Promise.resolve();
      },
      async stop() {
        await part.open?.close();
      },
    };
    return part;
  };
  const parsed = parseProcessConfig({
    instructions: "Be brief.",
    execution_mode: "open",
    journal: { level: "checkpoint" },
    ...config,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const process = new AgentProcess({
    name: "p",
    config: parsed.config,
    journal,
    dataDir,
    logger: new Logger("test", { sink: memorySink() }),
    parts: [agent, createTriggersPart()],
  });
  await process.start();
  const open = openModeOf(process)!;
  const tools = () => withOpenMode(BASE, open, process.config);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    tools().call(name, args, new AbortController().signal);
  const changes = async () =>
    (await journal.read({ type: "self_change" })).map((e) =>
      e.data as { kind: string; detail: Record<string, unknown> }
    );
  return {
    process,
    open,
    tools,
    call,
    changes,
    dataDir,
    async [Symbol.asyncDispose]() {
      await process.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("open-mode tools follow the open_mode switches", async () => {
  {
    await using p = await openProcess();
    const names = p.tools().specs().map((s) => s.name);
    assert.deepEqual(names, [
      "remember",
      "set_instructions",
      "add_trigger",
      "remove_trigger",
      "create_tool",
      "list_capabilities",
      "rollback",
    ]);
  }
  {
    await using p = await openProcess({
      open_mode: {
        allow_tool_creation: false,
        allow_trigger_management: false,
        allowed_mcp_urls: ["http://127.0.0.1:1/mcp"],
      },
    });
    const names = p.tools().specs().map((s) => s.name);
    assert.deepEqual(names, [
      "remember",
      "set_instructions",
      "connect_server",
      "disconnect_server",
      "list_capabilities",
      "rollback",
    ]);
    assert.equal((await p.call("create_tool", { name: "x" })).content, "base create_tool");
  }
  {
    await using p = await openProcess({
      open_mode: { allow_mcp_connect: false, allowed_mcp_urls: ["http://a/"] },
    });
    assert.ok(!p.tools().specs().some((s) => s.name === "connect_server"));
  }
});

Deno.test("set_instructions replaces the instructions for the next run, refuses over-length, journals", async () => {
  await using p = await openProcess({ open_mode: { max_instruction_length: 100 } });
  const refused = await p.call("set_instructions", { instructions: "x".repeat(101) });
  assert.deepEqual(refused, {
    content: "Instructions are limited to 100 characters; these have 101. Nothing changed.",
    isError: true,
  });
  assert.equal((await p.call("set_instructions", { instructions: " " })).isError, true);
  assert.equal(p.process.config.instructions, "Be brief.");
  const done = await p.call("set_instructions", { instructions: "Be thorough." });
  assert.equal(done.isError, false);
  assert.equal(p.process.config.instructions, "Be thorough.");
  assert.deepEqual(await p.changes(), [{
    kind: "set_instructions",
    detail: { chars: 12, instructions: "Be thorough." },
  }]);
  await p.process.stop();
  assert.equal(p.process.config.instructions, "Be brief.", "a stop ends the agent's instructions");
});

Deno.test("add_trigger starts a dynamic trigger, capped, checked like POST triggers; remove_trigger only its own", async () => {
  await using p = await openProcess({
    open_mode: { max_dynamic_triggers: 1 },
    triggers: [{ type: "event", event_type: "configured" }],
  });
  const added = await p.call("add_trigger", { trigger: { type: "event", event_type: "order.created" } });
  assert.equal(added.isError, false, added.content);
  const id = /Trigger (\S+) /.exec(added.content)![1];
  assert.match(id, /^dynamic-event-[0-9a-f]{8}$/);
  const listing = listTriggers(p.process);
  assert.deepEqual(listing.map((t) => [t.type, t.source, t.live]), [["event", "config", true], [
    "event",
    "dynamic",
    true,
  ]]);
  assert.equal(listing[1].id, id);
  assert.equal(
    (await p.call("add_trigger", { trigger: { type: "event", event_type: "second" } })).content,
    "You may add at most 1 triggers; remove one first.",
  );
  const configuredId = listing[0].id;
  assert.equal((await p.call("remove_trigger", { trigger_id: configuredId })).isError, true);
  assert.equal((await p.call("remove_trigger", { trigger_id: id })).isError, false);
  assert.equal(listTriggers(p.process).length, 1);

  const outside = await p.call("add_trigger", { trigger: { type: "file_watch", watch_path: "/etc" } });
  assert.equal(outside.isError, true);
  assert.match(outside.content, /watch_path/);
  const inside = await p.call("add_trigger", {
    trigger: { type: "file_watch", watch_path: join(p.dataDir) },
  });
  assert.equal(inside.isError, false, inside.content);
  await p.call("remove_trigger", { trigger_id: /Trigger (\S+) /.exec(inside.content)![1] });
  const env = await p.call("add_trigger", { trigger: { type: "event", event_type: "${HOME}" } });
  assert.deepEqual(env, {
    content: "References (${...}) are not allowed in triggers you add.",
    isError: true,
  });
  const invalid = await p.call("add_trigger", { trigger: { type: "cron" } });
  assert.match(invalid.content, /^The trigger is not valid: cron_expression/);
  assert.deepEqual((await p.changes()).map((c) => c.kind), [
    "add_trigger",
    "remove_trigger",
    "add_trigger",
    "remove_trigger",
  ]);
});

Deno.test("connect_server takes only allowed URLs and sends no credential; disconnect_server closes it", async () => {
  await using served = await new LoopbackServer(sampleServer()).start();
  const server = { url: `${served.base}/mcp` };
  await using p = await openProcess({
    open_mode: { allowed_mcp_urls: [server.url] },
    servers: {},
    secrets: { enabled: true, secrets: { TOKEN: "tok-123" } },
  });
  const outside = await p.call("connect_server", { name: "other", url: "http://127.0.0.1:9/mcp" });
  assert.deepEqual(outside, {
    content: "http://127.0.0.1:9/mcp is not an allowed MCP server URL.",
    isError: true,
  });
  assert.equal((await p.call("connect_server", { name: "a__b", url: server.url })).isError, true);
  const connected = await p.call("connect_server", { name: "extra", url: server.url });
  assert.equal(connected.isError, false, connected.content);
  const names = p.tools().specs().map((s) => s.name).filter((n) => n.startsWith("extra__"));
  assert.ok(names.length > 0);
  assert.deepEqual(await p.call("extra__echo", { text: "hi" }), { content: "hi", isError: false });
  assert.ok(served.requests.length > 0);
  assert.deepEqual(
    served.requests.filter((r) => "authorization" in r.headers || "x-api-key" in r.headers),
    [],
  );
  assert.equal((await p.call("connect_server", { name: "extra", url: server.url })).isError, true);
  assert.equal((await p.call("disconnect_server", { name: "extra" })).isError, false);
  assert.equal(p.tools().specs().some((s) => s.name.startsWith("extra__")), false);
  assert.deepEqual((await p.changes()).map((c) => c.kind), ["connect_server", "disconnect_server"]);
});

Deno.test("an empty allowed_mcp_urls allows no server", async () => {
  await using p = await openProcess();
  await assert.rejects(
    p.open.connectServer("x", "http://127.0.0.1:9/mcp"),
    /open_mode.allowed_mcp_urls is empty/,
  );
});

Deno.test("create_tool checks name, cap and code, then the tool runs in the sandbox", async () => {
  await using p = await openProcess({ open_mode: { max_custom_tools: 1 } });
  const tool = {
    name: "add",
    description: "Adds a and b.",
    input_schema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } },
    code: "export default (args: { a: number; b: number }) => ({ sum: args.a + args.b });",
  };
  assert.match((await p.call("create_tool", { ...tool, name: "remember" })).content, /already exists/);
  assert.match((await p.call("create_tool", { ...tool, name: "a__b" })).content, /no `__`/);
  assert.match(
    (await p.call("create_tool", { ...tool, code: "export const x = 1;" })).content,
    /must export a default function/,
  );
  assert.equal((await p.call("create_tool", tool)).isError, false);
  assert.ok(p.tools().specs().some((s) => s.name === "add"));
  assert.deepEqual(await p.call("add", { a: 2, b: 40 }), { content: '{"sum":42}', isError: false });
  assert.match((await p.call("create_tool", { ...tool, name: "add2" })).content, /at most 1 tools/);
  const changes = await p.changes();
  assert.deepEqual(changes, [{
    kind: "create_tool",
    detail: { name: "add", description: "Adds a and b.", code_chars: tool.code.length },
  }]);
});

Deno.test("parallel create_tool and add_trigger calls of one turn stay within the caps", async () => {
  await using p = await openProcess({ open_mode: { max_custom_tools: 1, max_dynamic_triggers: 1 } });
  const tool = (name: string) => ({ name, description: "x", code: "export default () => 1;" });
  const tools = await Promise.all([p.call("create_tool", tool("a")), p.call("create_tool", tool("b"))]);
  assert.deepEqual(tools.map((t) => t.isError).sort(), [false, true]);
  const trigger = (event_type: string) => ({ trigger: { type: "event", event_type } });
  const triggers = await Promise.all([
    p.call("add_trigger", trigger("a")),
    p.call("add_trigger", trigger("b")),
  ]);
  assert.deepEqual(triggers.map((t) => t.isError).sort(), [false, true]);
  assert.equal(p.open.dynamicTriggers().length, 1);
});

Deno.test("list_capabilities reports instructions, tools, triggers, servers and limits", async () => {
  await using p = await openProcess();
  const answer = await p.call("list_capabilities");
  const caps = JSON.parse(answer.content);
  assert.equal(caps.mode, "open");
  assert.equal(caps.instructions_chars, "Be brief.".length);
  assert.ok(caps.tools.includes("set_instructions") && caps.tools.includes("remember"));
  assert.deepEqual(caps.dynamic_triggers, []);
  assert.equal(caps.limits.max_custom_tools, 20);
});

Deno.test("rollback restores the deployed config and journals what it undid", async () => {
  await using p = await openProcess();
  await p.call("set_instructions", { instructions: "Be loud." });
  await p.call("add_trigger", { trigger: { type: "event", event_type: "x" } });
  await p.call("create_tool", { name: "one", description: "1", code: "export default () => 1;" });
  const answer = await p.call("rollback");
  assert.equal(answer.isError, false);
  assert.equal(p.process.config.instructions, "Be brief.");
  assert.equal(listTriggers(p.process).length, 0);
  assert.equal(p.tools().specs().some((s) => s.name === "one"), false);
  const last = (await p.changes()).at(-1)!;
  assert.equal(last.kind, "rollback");
  assert.equal(last.detail.instructions_restored, true);
  assert.deepEqual(last.detail.tools_dropped, ["one"]);
  assert.equal((last.detail.triggers_removed as string[]).length, 1);
});

Deno.test("rollback keeps instructions an operator set after the agent's change", async () => {
  await using p = await openProcess();
  await p.call("set_instructions", { instructions: "Agent's." });
  p.process.setInstructions("Operator's.");
  await p.open.rollback();
  assert.equal(p.process.config.instructions, "Operator's.");
});

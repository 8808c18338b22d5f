import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Logger, memorySink } from "../../log.ts";
import { MemoryJournal, ProcessJournal } from "../../journal/mod.ts";
import { parseSection } from "../config/issues.ts";
import type { HookConfig, HookConfigInput } from "../config/mod.ts";
import { ProcessHooks } from "./process_hooks.ts";

const SCRIPT = fileURLToPath(new URL("../../../tests/fixtures/hook_script.ts", import.meta.url));
const TOOL_CALL = { run_id: "r-1", tool: "delete_order", arguments: { id: 7 } };

/** A command hook running the fixture script in `mode`. */
function script(event: string, mode: string, arg = "", extra: Record<string, unknown> = {}): HookConfigInput {
  return {
    event,
    command: Deno.execPath(),
    args: ["run", "--allow-write", "--allow-env", SCRIPT, mode, arg],
    ...extra,
  } as HookConfigInput;
}

function hooksOf(input: unknown[]): HookConfig[] {
  const parsed = parseSection("hooks", input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.config;
}

function setup(input: unknown[], options: { redact?: (text: string) => string } = {}) {
  const sink = memorySink();
  const memory = new MemoryJournal();
  const journal = new ProcessJournal(memory, { process: "p", level: "checkpoint" });
  const redact = options.redact;
  const hooks = new ProcessHooks(hooksOf(input), {
    process: "p",
    processId: "id-1",
    logger: new Logger("test", { sink, level: "debug" }),
    journal,
    redactor: redact && { redacts: true, redact },
  });
  const entries = async () =>
    (await memory.read("p")).filter((e) => e.entry_type === "hook").map((e) => e.data);
  return { hooks, sink, entries };
}

Deno.test("a callback hook refuses a tool call and the refusal is journaled", async () => {
  const { hooks, entries } = setup([{
    event: "pre_tool_call",
    callback: (context: { data: Record<string, unknown> }) =>
      context.data.tool === "delete_order" ? { decision: "deny", reason: "orders are read-only" } : undefined,
  }]);
  assert.deepEqual(await hooks.beforeToolCall(TOOL_CALL), { allow: false, reason: "orders are read-only" });
  assert.deepEqual(await hooks.beforeToolCall({ ...TOOL_CALL, tool: "list_orders" }), { allow: true });
  const [entry, ...rest] = await entries();
  assert.equal(rest.length, 0);
  assert.equal(entry.event, "pre_tool_call");
  assert.equal(entry.hook, 0);
  assert.equal(entry.outcome, "denied");
  assert.equal(typeof entry.duration_ms, "number");
});

Deno.test("a command hook gets the JSON context on stdin and only a minimal environment", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/calls.jsonl`;
  Deno.env.set("OPENAI_API_KEY", "sk-must-not-leak");
  try {
    const { hooks } = setup([script("run_start", "record", file, { env: { HOOK_MODE: "audit" } })]);
    hooks.emit("run_start", {
      run_id: "r-1",
      invocation: 1,
      attempt: 1,
      event_id: "e-1",
      trigger_id: "t-1",
      trigger_type: "cron",
    });
    await hooks.settled();
  } finally {
    Deno.env.delete("OPENAI_API_KEY");
  }
  const [line] = (await Deno.readTextFile(file)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(Object.keys(line.input).sort(), ["data", "event", "process", "process_id", "timestamp"]);
  assert.equal(line.input.event, "run_start");
  assert.equal(line.input.process, "p");
  assert.equal(line.input.process_id, "id-1");
  assert.equal(line.input.data.trigger_type, "cron");
  assert.ok(!Number.isNaN(Date.parse(line.input.timestamp)));
  assert.equal(line.env.HOOK_MODE, "audit");
  assert.equal(line.env.OPENAI_API_KEY, undefined);
  assert.ok(line.env.PATH, "PATH is passed");
  const allowed = new Set(["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "TMPDIR", "HOOK_MODE"]);
  assert.deepEqual(Object.keys(line.env).filter((name) => !allowed.has(name)), []);
});

Deno.test("payloads are redacted before a hook sees them", async () => {
  const seen: unknown[] = [];
  const { hooks } = setup([{
    event: "pre_tool_call",
    callback: (context: unknown) => void seen.push(context),
  }], {
    redact: (text) => text.replaceAll("s3cret", "[REDACTED]"),
  });
  await hooks.beforeToolCall({ run_id: "r", tool: "login", arguments: { password: "s3cret" } });
  assert.deepEqual((seen[0] as { data: unknown }).data, {
    run_id: "r",
    tool: "login",
    arguments: { password: "[REDACTED]" },
  });
});

Deno.test("a command hook refuses by a JSON answer or by exit code 2 with stderr as the reason", async () => {
  const byJson = setup([script("pre_tool_call", "deny-json", "no deletes")]);
  assert.deepEqual(await byJson.hooks.beforeToolCall(TOOL_CALL), { allow: false, reason: "no deletes" });
  const byExit = setup([script("pre_tool_call", "deny-exit", "ask the operator first")]);
  assert.deepEqual(await byExit.hooks.beforeToolCall(TOOL_CALL), {
    allow: false,
    reason: "ask the operator first",
  });
  assert.equal((await byExit.entries())[0].command, Deno.execPath());
});

Deno.test("a hook past its timeout is killed, logged and journaled, and the call goes ahead", async () => {
  const { hooks, sink, entries } = setup([script("pre_tool_call", "sleep", "", { timeout: 0.5 })]);
  const began = Date.now();
  assert.deepEqual(await hooks.beforeToolCall(TOOL_CALL), { allow: true });
  assert.ok(Date.now() - began < 5000, "killed at its timeout");
  assert.equal((await entries())[0].outcome, "timed_out");
  assert.ok(sink.records.some((r) => r.level === "warning" && r.message === "hook timed out"));
});

Deno.test("a failing hook is logged with its stderr and the next hooks still run", async () => {
  await using dir = await tempDir();
  const file = `${dir.path}/lines.txt`;
  const { hooks, sink, entries } = setup([
    script("state_change", "fail"),
    script("state_change", "line", file),
    script("state_change", "garbage"),
  ]);
  hooks.emit("state_change", { from: "starting", to: "running", reason: "started" });
  hooks.emit("state_change", { from: "running", to: "stopping", reason: "stop requested" });
  await hooks.settled();
  assert.deepEqual((await Deno.readTextFile(file)).trim().split("\n").map((l) => l.split(" ")[0]), [
    "state_change",
    "state_change",
  ]);
  assert.match(await Deno.readTextFile(file), /"to":"running".*\n.*"to":"stopping"/);
  const failures = sink.records.filter((r) => r.message === "hook failed");
  assert.equal(failures.length, 2);
  assert.equal(failures[0].fields.stderr, "hook broke");
  assert.equal(failures[0].fields.error, "ended with exit code 1");
  // stdout is only read for pre_tool_call: garbage after a notification is no failure.
  assert.deepEqual((await entries()).map((e) => [e.hook, e.outcome]), [[0, "failed"], [0, "failed"]]);
});

Deno.test("a failing pre_tool_call hook lets the call through unless fail_closed", async () => {
  const open = setup([script("pre_tool_call", "garbage")]);
  assert.deepEqual(await open.hooks.beforeToolCall(TOOL_CALL), { allow: true });
  assert.equal((await open.entries())[0].error, "stdout is not JSON");
  const closed = setup([
    { event: "pre_tool_call", fail_closed: true, callback: () => Promise.reject(new Error("policy down")) },
  ]);
  const decision = await closed.hooks.beforeToolCall(TOOL_CALL);
  assert.deepEqual(decision, { allow: false, reason: "a pre_tool_call hook failed (fail_closed)" });
  assert.match(String((await closed.entries())[0].error), /policy down/);
});

Deno.test("hooks with a tool list run only for those tools", async () => {
  const calls: string[] = [];
  const { hooks } = setup([
    { event: "post_tool_call", tools: ["a"], callback: () => void calls.push("only-a") },
    { event: "post_tool_call", callback: () => void calls.push("every") },
  ]);
  const result = { run_id: "r", arguments: {}, result: "ok", is_error: false };
  hooks.emit("post_tool_call", { ...result, tool: "b" });
  hooks.emit("post_tool_call", { ...result, tool: "a" });
  await hooks.settled();
  assert.deepEqual(calls, ["every", "only-a", "every"]);
});

Deno.test("a set without hooks answers at once and runs nothing", async () => {
  const none = ProcessHooks.none();
  assert.equal(none.has("pre_tool_call"), false);
  assert.deepEqual(await none.beforeToolCall(TOOL_CALL), { allow: true });
  none.emit("message_received", { type: "directive" });
  await none.settled();
});

async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir();
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

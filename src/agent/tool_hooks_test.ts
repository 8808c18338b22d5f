import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { parseProcessConfig, ProcessHooks } from "../runtime/mod.ts";
import type { ToolBox } from "./tool_loop.ts";
import { withToolHooks } from "./tool_hooks.ts";

/** A box whose one tool echoes its arguments; `calls` lists what reached it. */
function echoBox(): ToolBox & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    specs: () => [{ name: "echo", description: "echo", inputSchema: { type: "object" } }],
    call: (name, args) => {
      calls.push(name);
      return Promise.resolve({ content: `${name}:${JSON.stringify(args)}`, isError: false });
    },
  };
}

function hooks(input: unknown[]): ProcessHooks {
  const parsed = parseProcessConfig({ hooks: input });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return new ProcessHooks(parsed.config.hooks, {
    process: "p",
    processId: "id",
    logger: new Logger("t", { sink: memorySink() }),
  });
}

const redact = (text: string) => text.replaceAll("hunter2", "[REDACTED]");
const signal = new AbortController().signal;

Deno.test("without tool hooks the box is used as it is", () => {
  const box = echoBox();
  assert.equal(withToolHooks(box, undefined, { runId: "r", redact }), box);
  assert.equal(withToolHooks(box, ProcessHooks.none(), { runId: "r", redact }), box);
  assert.equal(
    withToolHooks(box, hooks([{ event: "run_end", callback: () => 1 }]), { runId: "r", redact }),
    box,
  );
});

Deno.test("a refused call never reaches the tool and the model gets the reason as a tool error", async () => {
  const box = echoBox();
  const seen: unknown[] = [];
  const set = hooks([
    { event: "pre_tool_call", callback: () => ({ decision: "deny", reason: "password hunter2 is wrong" }) },
    { event: "post_tool_call", callback: (context: { data: unknown }) => void seen.push(context.data) },
  ]);
  const hooked = withToolHooks(box, set, { runId: "r-9", redact });
  const outcome = await hooked.call("echo", { text: "hi" }, signal);
  assert.deepEqual(outcome, {
    content: "The call was refused by a hook: password [REDACTED] is wrong",
    isError: true,
  });
  assert.deepEqual(box.calls, []);
  await set.settled();
  assert.deepEqual(seen, [{
    run_id: "r-9",
    tool: "echo",
    arguments: { text: "hi" },
    result: "The call was refused by a hook: password [REDACTED] is wrong",
    is_error: true,
  }]);
  assert.deepEqual(hooked.specs().map((s) => s.name), ["echo"]);
});

Deno.test("post_tool_call hooks get the tool, its arguments and the result", async () => {
  const box = echoBox();
  const seen: unknown[] = [];
  const set = hooks([{
    event: "post_tool_call",
    callback: (context: { data: unknown }) => void seen.push(context.data),
  }]);
  const hooked = withToolHooks(box, set, { runId: "r-1", redact });
  const outcome = await hooked.call("echo", { n: 1 }, signal);
  await set.settled();
  assert.equal(outcome.content, 'echo:{"n":1}');
  assert.deepEqual(seen, [{
    run_id: "r-1",
    tool: "echo",
    arguments: { n: 1 },
    result: 'echo:{"n":1}',
    is_error: false,
  }]);
});

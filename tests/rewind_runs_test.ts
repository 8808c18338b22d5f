/**
 * Rewind with real runs: the local model server, the agent runner and AgentRuntime in-process. Each mode's
 * effect is checked on what the model receives in the next run.
 */

import assert from "node:assert/strict";
import { type AgentProcess, previewRewind, type RewindMode, rewindProcess } from "../src/runtime/mod.ts";
import { runsOf } from "../src/runtime/process.ts";
import type { ChatMessage } from "../src/models/mod.ts";
import { type RecordedRequest, startModelServer } from "../src/models/testing/mod.ts";
import { testConfig } from "../src/runtime/_test_config.ts";
import { agentRuntime } from "../src/agent/_test_runtime.ts";

const STEPS: Record<string, number> = { alpha: 1, beta: 2, gamma: 3 };

/** Each trigger sets `step` with the built-in tool, then replies `reply to <word>`. */
function respond(request: RecordedRequest) {
  const last = request.messages.at(-1)!;
  const word = /<untrusted[^>]*>\n(\w+)\n/.exec(triggerOf(request.messages) ?? "")?.[1] ?? "?";
  if (last.role === "user") {
    return { toolCalls: [{ name: "set_context", arguments: { values: { step: STEPS[word] ?? 0 } } }] };
  }
  return { text: `reply to ${word}` };
}

function triggerOf(messages: ChatMessage[]): string | undefined {
  return messages.findLast((m) => m.role === "user" && m.content.startsWith("[Trigger:"))?.content;
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Delivers `payload` and waits for that run to succeed. */
async function run(process: AgentProcess, payload: string): Promise<void> {
  const before = process.runLog.list().length;
  await runsOf(process).deliver({
    trigger_id: "manual",
    trigger_type: "manual",
    event_id: crypto.randomUUID(),
    timestamp: new Date().toISOString(),
    payload,
    metadata: {},
  });
  await until(
    () => process.runLog.list().length > before && process.runLog.list()[0].status !== "running",
    payload,
  );
  assert.equal(process.runLog.list()[0].status, "succeeded");
}

/** The entry id of the `user_prompt` of the run whose trigger carried `word`. */
async function promptEntry(process: AgentProcess, word: string): Promise<string> {
  const prompts = await process.journal!.read({ type: "user_prompt" });
  const entry = prompts.find((e) => String(e.data.content).includes(`\n${word}\n`));
  assert.ok(entry, `a user_prompt entry for ${word}`);
  return entry.entry_id;
}

/** Runs alpha and beta, rewinds to just before beta's prompt with `mode`, runs gamma: its first request. */
async function nextPromptAfter(mode: RewindMode): Promise<{ messages: ChatMessage[]; state: unknown }> {
  await using model = startModelServer({ respond });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const settings = testConfig({ model: "openai-compatible:m", journal: { backend: "memory" } });
    const process = await runtime.deploy("keeper", settings, { start: true });
    await run(process, "alpha");
    await run(process, "beta");
    await rewindProcess(process, await promptEntry(process, "beta"), { mode });
    const state = process.context.snapshot();
    const sent = model.requests.length;
    await run(process, "gamma");
    return { messages: model.requests[sent].messages, state };
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** The prompt as `role: text` lines, trigger messages shortened to their payload word. */
function shape(messages: ChatMessage[]): string[] {
  return messages.map((m) => {
    const word = /<untrusted[^>]*>\n(\w+)\n/.exec(m.content)?.[1];
    return `${m.role}: ${word ? `trigger ${word}` : m.content.slice(0, 40)}`;
  });
}

Deno.test("every rewind mode shapes the next run's prompt as documented", async (t) => {
  await t.step("both: context and conversation as before the target", async () => {
    const { messages, state } = await nextPromptAfter("both");
    assert.deepEqual(state, { step: 1 });
    assert.deepEqual(shape(messages), [
      'system: [Context State] {"step":1}',
      "user: trigger alpha",
      "assistant: reply to alpha",
      "user: trigger gamma",
    ]);
  });
  await t.step("conversation_only: conversation back, context kept", async () => {
    const { messages, state } = await nextPromptAfter("conversation_only");
    assert.deepEqual(state, { step: 2 });
    assert.deepEqual(shape(messages), [
      'system: [Context State] {"step":2}',
      "user: trigger alpha",
      "assistant: reply to alpha",
      "user: trigger gamma",
    ]);
  });
  await t.step("code_only: context back, conversation kept", async () => {
    const { messages, state } = await nextPromptAfter("code_only");
    assert.deepEqual(state, { step: 1 });
    assert.deepEqual(shape(messages), [
      'system: [Context State] {"step":1}',
      "user: trigger alpha",
      "assistant: reply to alpha",
      "user: trigger beta",
      "assistant: reply to beta",
      "user: trigger gamma",
    ]);
  });
  await t.step("summarize: nothing back, a runtime note in the conversation", async () => {
    const { messages, state } = await nextPromptAfter("summarize");
    assert.deepEqual(state, { step: 2 });
    assert.deepEqual(shape(messages).slice(0, 5), [
      'system: [Context State] {"step":2}',
      "user: trigger alpha",
      "assistant: reply to alpha",
      "user: trigger beta",
      "assistant: reply to beta",
    ]);
    const note = messages[5];
    assert.equal(note.role, "user");
    assert.match(note.content, /^\[Runtime note\] An operator rewound past \d+ journal entries/);
    assert.match(note.content, /Context keys written in it: step\./);
    assert.deepEqual(shape(messages).slice(6), ["user: trigger gamma"]);
  });
  await t.step("cancel: nothing changes", async () => {
    const { messages, state } = await nextPromptAfter("cancel");
    assert.deepEqual(state, { step: 2 });
    assert.equal(shape(messages).length, 6);
    assert.deepEqual(shape(messages).slice(-3), [
      "user: trigger beta",
      "assistant: reply to beta",
      "user: trigger gamma",
    ]);
  });
});

Deno.test("runs journal user_prompt and assistant_message; a plan changes nothing", async () => {
  await using model = startModelServer({ respond });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const settings = testConfig({
      model: "openai-compatible:m",
      journal: { backend: "memory", level: "checkpoint" },
    });
    const process = await runtime.deploy("keeper", settings, { start: true });
    await run(process, "alpha");
    await run(process, "beta");
    const replies = await process.journal!.read({ type: "assistant_message" });
    assert.deepEqual(replies.map((e) => e.data.content), ["reply to alpha", "reply to beta"]);
    const [prompt] = await process.journal!.read({ type: "user_prompt", limit: 1 });
    assert.equal(prompt.data.run_id, replies[1].data.run_id);
    const before = await process.journal!.read();
    const plan = await previewRewind(process, await promptEntry(process, "beta"), { mode: "both" });
    assert.equal(plan.conversation_entries_affected, 2);
    assert.equal(plan.code_entries_affected, 1, "beta's context_update");
    assert.equal(
      plan.entries_affected,
      before.length - before.findIndex((e) => e.entry_id === plan.target_entry_id),
    );
    assert.deepEqual(await process.journal!.read(), before);
    assert.deepEqual(process.context.snapshot(), { step: 2 });
    assert.equal(process.conversation.size, 4);
    assert.equal(process.state, "running");
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a rewind waits for a short run, and answers REWIND_BUSY when a run outlasts the wait", async () => {
  await using model = startModelServer({ respond, delayMs: 400 });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const settings = testConfig({ model: "openai-compatible:m", journal: { backend: "memory" } });
    const process = await runtime.deploy("keeper", settings, { start: true });
    await run(process, "alpha");
    const target = await promptEntry(process, "alpha");
    const sent = model.requests.length;
    void runsOf(process).deliver({
      trigger_id: "manual",
      trigger_type: "manual",
      event_id: crypto.randomUUID(),
      timestamp: new Date().toISOString(),
      payload: "beta",
      metadata: {},
    });
    await until(() => model.requests.length > sent, "the slow model request");
    await assert.rejects(
      rewindProcess(process, target, { mode: "both", waitMs: 100 }),
      (error: Error & { code?: string }) => error.code === "REWIND_BUSY",
    );
    assert.equal(process.state, "running", "resumed after the refused rewind");
    assert.equal((await process.journal!.read({ type: "rewind" })).length, 0);
    const result = await rewindProcess(process, target, { mode: "both", waitMs: 5_000, actor: "tester" });
    assert.equal(result.applied, true);
    assert.equal(process.runLog.list()[0].status, "succeeded", "the run in flight finished first");
    assert.deepEqual(process.context.snapshot(), {});
    assert.equal(process.conversation.size, 0);
    const [entry] = await process.journal!.read({ type: "rewind" });
    assert.equal(entry.data.actor, "tester");
    assert.equal(result.state, "running");
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("the engine refuses an unknown entry, a process without journal and an unknown mode", async () => {
  await using model = startModelServer({ respond });
  const dataDir = await Deno.makeTempDir();
  const runtime = agentRuntime(model.url, dataDir);
  try {
    const journaled = await runtime.deploy(
      "kept",
      testConfig({ model: "openai-compatible:m", journal: { backend: "memory" } }),
    );
    const plain = await runtime.deploy("plain", testConfig({ model: "openai-compatible:m" }));
    const code = (expected: string) => (error: Error & { code?: string }) => error.code === expected;
    await assert.rejects(rewindProcess(journaled, "nope"), code("ENTRY_NOT_FOUND"));
    await assert.rejects(previewRewind(journaled, "nope"), code("ENTRY_NOT_FOUND"));
    await assert.rejects(rewindProcess(plain, "nope"), code("JOURNAL_DISABLED"));
    await assert.rejects(previewRewind(journaled, "nope", { mode: "all" }), code("INVALID_FIELD"));
  } finally {
    await runtime.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("after a rewind, a runtime restart on the same data dir recovers the rewound state", async () => {
  await using model = startModelServer({ respond });
  const dataDir = await Deno.makeTempDir();
  const settings = testConfig({ model: "openai-compatible:m", journal: { level: "checkpoint" } });
  try {
    const first = agentRuntime(model.url, dataDir);
    try {
      const process = await first.deploy("keeper", settings, { start: true });
      await run(process, "alpha");
      await run(process, "beta");
      await rewindProcess(process, await promptEntry(process, "beta"), { mode: "both" });
    } finally {
      await first.close();
    }
    const second = agentRuntime(model.url, dataDir);
    try {
      const again = await second.deploy("keeper", settings, { start: true });
      assert.deepEqual(again.context.snapshot(), { step: 1 });
      assert.deepEqual(again.conversation.messages().map((m) => m.content.slice(0, 8)), [
        "[Trigger",
        "reply to",
      ]);
      const sent = model.requests.length;
      await run(again, "gamma");
      assert.deepEqual(shape(model.requests[sent].messages), [
        'system: [Context State] {"step":1}',
        "user: trigger alpha",
        "assistant: reply to alpha",
        "user: trigger gamma",
      ]);
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

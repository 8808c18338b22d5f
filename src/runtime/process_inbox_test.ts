import assert from "node:assert/strict";
import { Logger, memorySink } from "../log.ts";
import { AgentProcess } from "./process.ts";
import type { Invoker, ProcessEvent } from "./process_event.ts";
import { testConfig } from "./_test_config.ts";

const quiet = () => new Logger("test", { sink: memorySink() });

/** An invoker that shows what each run saw and answers every question it was shown. */
function answeringInvoker(events: ProcessEvent[], blocks: string[]): Invoker {
  return (run) => {
    events.push(run.event);
    const seen = run.inbox!.forRun();
    blocks.push(seen.block);
    const reply = seen.questionIds.map((_, i) =>
      `ANSWER Q${i + 1}: answer ${i + 1} from run ${run.invocation}`
    );
    seen.settle(reply.join("\n"), { invocationId: String(run.invocation) });
    return Promise.resolve({ response: reply.join("\n") });
  };
}

Deno.test("inbox.wake: a question queues an inbox event and the woken run answers it", async () => {
  const events: ProcessEvent[] = [];
  const blocks: string[] = [];
  const process = new AgentProcess({
    name: "w",
    config: testConfig({ inbox: { enabled: true, wake: true } }),
    logger: quiet(),
    invoker: answeringInvoker(events, blocks),
  });
  await process.start();
  try {
    const answer = await process.inbox!.ask({ content: "Ready?", timeout: 5 });
    assert.equal(answer.status, "answered");
    assert.equal(answer.response, "answer 1 from run 1");
    assert.equal(answer.invocation_id, "1");
    assert.equal(events[0].trigger_type, "inbox");
    assert.equal(events[0].trigger_id, "inbox");
    assert.deepEqual(events[0].payload, { reason: "operator question", message_id: answer.question_id });
    assert.match(blocks[0], /\[QUESTION\] Q1 \(just now, expires in 1 min\)\nReady\?/);
    assert.equal(process.inbox!.list().length, 0);
  } finally {
    await process.stop();
  }
});

Deno.test("without wake nothing runs until a trigger; messages sent before the run starts share one run", async () => {
  const events: ProcessEvent[] = [];
  const blocks: string[] = [];
  const process = new AgentProcess({
    name: "n",
    config: testConfig({ inbox: { enabled: true } }),
    logger: quiet(),
    invoker: answeringInvoker(events, blocks),
  });
  await process.start();
  try {
    const answer = await process.inbox!.ask({ content: "Anyone?", timeout: 0.05 });
    assert.equal(answer.status, "timeout");
    assert.equal(events.length, 0);
    assert.deepEqual(process.status().inbox, { enabled: true, pending: 1, questions: 1 });
  } finally {
    await process.stop();
  }

  const woken = new AgentProcess({
    name: "c",
    config: testConfig({ inbox: { enabled: true, wake: true } }),
    logger: quiet(),
    invoker: answeringInvoker(events, blocks),
  });
  await woken.inbox!.send({ content: "before start" }); // not started: no event
  await woken.start();
  try {
    await woken.suspend(); // runs wait: both messages arrive before the woken run starts
    await woken.inbox!.send({ content: "one" });
    await woken.inbox!.send({ content: "two" });
    await woken.resume();
    const deadline = Date.now() + 5000;
    while (woken.inbox!.list().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(events.length, 1, "one run for both messages");
    assert.match(blocks.at(-1)!, /before start[\s\S]*one[\s\S]*two/);
  } finally {
    await woken.stop();
  }
});

Deno.test("removing a process clears its inbox: a waiting ask ends with QUESTION_REMOVED", async () => {
  const process = new AgentProcess({
    name: "r",
    config: testConfig({ inbox: { enabled: true } }),
    logger: quiet(),
  });
  await process.start();
  const waiting = process.inbox!.ask({ content: "?", timeout: 30 });
  const ended = assert.rejects(waiting, { name: "RuntimeError", message: /cleared/ });
  await new Promise((resolve) => setTimeout(resolve, 0));
  await process.close();
  await ended;
});

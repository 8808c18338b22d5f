import assert from "node:assert/strict";
import { testInbox } from "./_test_inbox.ts";

const redact = (text: string) => text.replaceAll("hunter2", "[REDACTED]");

Deno.test("a run's answers reach their questions (redacted), then what it saw is removed", async () => {
  const { inbox } = testInbox();
  await inbox.send({ content: "Be brief.", message_type: "directive" });
  await inbox.send({ content: "Fix the typo.", message_type: "correction", priority: "high" });
  const first = inbox.ask({ content: "Password?", timeout: 30 });
  const second = inbox.ask({ content: "Open orders?", timeout: 30, priority: "low" });
  const third = inbox.ask({ content: "Unanswered?", timeout: 1 });
  await new Promise((resolve) => setTimeout(resolve, 0));
  const run = inbox.forRun();
  assert.equal(run.questionIds.length, 3);
  assert.match(run.block, /\[QUESTION\] Q1 .*\nPassword\?/);
  assert.match(run.block, /\[QUESTION\] Q2 .*\nUnanswered\?/);
  assert.match(run.block, /\[LOW QUESTION\] Q3 .*\nOpen orders\?/);
  // A message arriving during the run is not removed by it.
  await inbox.send({ content: "Arrived during the run." });
  const answered = run.settle(
    "All done.\nANSWER Q1: it is hunter2\nANSWER Q3: 12 open\nANSWER Q9: nobody asked",
    { invocationId: "4", redact },
  );
  assert.equal(answered, 2);
  const a1 = await first;
  assert.equal(a1.response, "it is [REDACTED]");
  assert.equal(a1.invocation_id, "4");
  assert.equal((await second).response, "12 open");
  assert.deepEqual(inbox.list().map((i) => i.content), ["Unanswered?", "Arrived during the run."]);
  assert.equal((await third).status, "timeout");
  const next = inbox.forRun();
  assert.deepEqual(next.questionIds.length, 1, "the unanswered question is shown again, now Q1");
  assert.match(next.block, /\[QUESTION\] Q1 .*\nUnanswered\?/);
});

Deno.test("a question sent with /messages is numbered and answered like an asked one", async () => {
  const { inbox } = testInbox();
  await inbox.send({ content: "Which region?", message_type: "question" });
  const run = inbox.forRun();
  assert.equal(run.settle("ANSWER Q1: eu", { invocationId: "1" }), 1);
  assert.equal(inbox.list().length, 0);
});

Deno.test("an empty inbox gives an empty block and settling changes nothing", () => {
  const { inbox } = testInbox();
  const run = inbox.forRun();
  assert.equal(run.block, "");
  assert.equal(run.settle("ANSWER Q1: x", { invocationId: "1" }), 0);
});

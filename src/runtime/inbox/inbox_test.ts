import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { code, testInbox } from "./_test_inbox.ts";

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);

Deno.test("a message gets a msg_ id, status queued and expires after default_ttl", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: T0 });
  try {
    const { inbox, arrivals } = testInbox();
    const queued = await inbox.send({ content: "Pause refunds." });
    assert.match(queued.message_id, /^msg_[0-9a-f]{24}$/);
    assert.equal(queued.status, "queued");
    assert.equal(queued.expires_at, T0 / 1000 + 3600);
    const [item] = inbox.list();
    assert.deepEqual(item, {
      message_id: queued.message_id,
      message_type: "context",
      priority: "normal",
      content: "Pause refunds.",
      sender_id: null,
      metadata: {},
      created_at: T0 / 1000,
      expires_at: T0 / 1000 + 3600,
      status: "queued",
    });
    assert.equal(arrivals.length, 1);
  } finally {
    clock.uninstall();
  }
});

Deno.test("ttl: 0 or missing uses default_ttl, max_ttl caps it, 0 caps mean none", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: T0 });
  try {
    const at = (s: number) => T0 / 1000 + s;
    const capped = testInbox({ default_ttl: 100, max_ttl: 500 }).inbox;
    assert.equal((await capped.send({ content: "a", ttl: 0 })).expires_at, at(100));
    assert.equal((await capped.send({ content: "b" })).expires_at, at(100));
    assert.equal((await capped.send({ content: "c", ttl: 50 })).expires_at, at(50));
    assert.equal((await capped.send({ content: "d", ttl: 9999 })).expires_at, at(500), "max_ttl caps");
    assert.equal((await capped.send({ content: "e", ttl: 0.5 })).expires_at, at(0.5));
    const noDefault = testInbox({ default_ttl: 0, max_ttl: 500 }).inbox;
    assert.equal((await noDefault.send({ content: "f" })).expires_at, at(500), "no expiry is capped too");
    const noCap = testInbox({ default_ttl: 0, max_ttl: 0 }).inbox;
    assert.equal((await noCap.send({ content: "g" })).expires_at, null, "never expires");
    assert.equal((await noCap.send({ content: "h", ttl: 10 ** 7 })).expires_at, at(10 ** 7), "no cap");
  } finally {
    clock.uninstall();
  }
});

Deno.test("bad fields: unknown type INVALID_TYPE, others INVALID_FIELD naming the field", async () => {
  const { inbox } = testInbox();
  const bad = (input: Record<string, unknown>) =>
    inbox.send(input as unknown as Parameters<typeof inbox.send>[0]);
  await assert.rejects(bad({ content: "x", message_type: "rumour" }), code("INVALID_TYPE"));
  await assert.rejects(bad({ content: "x", message_type: 3 }), code("INVALID_TYPE"));
  for (
    const [input, field] of [
      [{ content: "" }, "content"],
      [{ content: "  \n" }, "content"],
      [{ content: 5 }, "content"],
      [{ content: "x", priority: "urgent" }, "priority"],
      [{ content: "x", ttl: -1 }, "ttl"],
      [{ content: "x", ttl: "60" }, "ttl"],
      [{ content: "x", ttl: Infinity }, "ttl"],
      [{ content: "x", sender_id: 7 }, "sender_id"],
      [{ content: "x", metadata: [1] }, "metadata"],
    ] as const
  ) {
    await assert.rejects(
      bad(input),
      (e: unknown) =>
        code("INVALID_FIELD")(e) && (e as { details: { field: string } }).details.field === field,
      JSON.stringify(input),
    );
  }
  assert.equal(inbox.list().length, 0);
});

Deno.test("a stopped or failed process refuses messages with PROCESS_NOT_RUNNING; created takes them", async () => {
  const { inbox, setState } = testInbox();
  for (const state of ["stopped", "failed"] as const) {
    setState(state);
    await assert.rejects(inbox.send({ content: "x" }), code("PROCESS_NOT_RUNNING"));
    await assert.rejects(inbox.ask({ content: "x?" }), code("PROCESS_NOT_RUNNING"));
  }
  setState("created");
  await inbox.send({ content: "early" });
  assert.equal(inbox.list().length, 1);
});

Deno.test("content longer than max_message_length is truncated, not refused", async () => {
  const { inbox } = testInbox({ max_message_length: 10 });
  await inbox.send({ content: "0123456789abcdef" });
  await inbox.send({ content: "123456789😀" }); // the pair would be split at 10: cut before it
  assert.deepEqual(inbox.list().map((i) => i.content), ["0123456789", "123456789"]);
});

Deno.test("rate limit: per sender per sliding hour, refused messages do not count, no sender no limit", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: T0 });
  try {
    const { inbox } = testInbox({ rate_limit_per_sender: 2, max_messages: 1 });
    await inbox.send({ content: "pinned", priority: "critical" });
    // Refused for room (a critical message is held): does not count.
    await assert.rejects(inbox.send({ content: "full", sender_id: "ann" }), code("INBOX_FULL"));
    inbox.clear();
    await inbox.send({ content: "a", sender_id: "ann" });
    clock.tick(10 * 60_000);
    inbox.clear();
    await inbox.send({ content: "b", sender_id: "ann" });
    inbox.clear();
    await assert.rejects(inbox.send({ content: "c", sender_id: "ann" }), code("RATE_LIMITED"));
    await assert.rejects(inbox.ask({ content: "c?", sender_id: "ann" }), code("RATE_LIMITED"));
    await inbox.send({ content: "d", sender_id: "bob" });
    for (let i = 0; i < 5; i++) inbox.clear(), await inbox.send({ content: `anon ${i}` });
    inbox.clear();
    clock.tick(50 * 60_000); // ann's first message is an hour old: one slot again
    await inbox.send({ content: "e", sender_id: "ann" });
    inbox.clear();
    await assert.rejects(inbox.send({ content: "f", sender_id: "ann" }), code("RATE_LIMITED"));
  } finally {
    clock.uninstall();
  }
});

Deno.test("eviction: the oldest of the lowest priority goes; never critical, never a higher priority", async () => {
  const { inbox } = testInbox({ max_messages: 3 });
  const a = await inbox.send({ content: "a", priority: "low" });
  await inbox.send({ content: "b", priority: "low" });
  await inbox.send({ content: "c", priority: "high" });
  await inbox.send({ content: "d", priority: "normal" }); // evicts a (oldest low)
  assert.deepEqual(inbox.list().map((i) => i.content), ["c", "d", "b"]);
  assert.ok(!inbox.list().some((i) => i.message_id === a.message_id));
  // b is the only low: a low message may evict it (equal priority is not higher).
  await inbox.send({ content: "e", priority: "low" });
  assert.deepEqual(inbox.list().map((i) => i.content), ["c", "d", "e"]);
});

Deno.test("eviction never takes a higher priority and never a critical message", async () => {
  const { inbox } = testInbox({ max_messages: 2 });
  await inbox.send({ content: "h1", priority: "high" });
  await inbox.send({ content: "h2", priority: "high" });
  await assert.rejects(inbox.send({ content: "n", priority: "normal" }), code("INBOX_FULL"));
  await inbox.send({ content: "c1", priority: "critical" }); // evicts h1
  await inbox.send({ content: "c2", priority: "critical" }); // evicts h2
  assert.deepEqual(inbox.list().map((i) => i.content), ["c1", "c2"]);
  await assert.rejects(inbox.send({ content: "c3", priority: "critical" }), code("INBOX_FULL"));
  assert.equal(inbox.list().length, 2, "never more than max_messages");
});

Deno.test("eviction replaces an answered question first, whatever its priority", async () => {
  const { inbox } = testInbox({ max_messages: 2 });
  const asked = inbox.ask({ content: "Status?", priority: "critical", timeout: 5 });
  await inbox.send({ content: "low one", priority: "low" });
  const [question] = inbox.list().filter((i) => i.message_type === "question");
  assert.ok(inbox.answer(question.message_id, "All good", { invocationId: "7" }));
  const answer = await asked;
  assert.equal(answer.status, "answered");
  assert.equal(answer.response, "All good");
  assert.equal(answer.invocation_id, "7");
  assert.equal(typeof answer.answered_at, "number");
  assert.equal(inbox.list()[0].status, "answered");
  await inbox.send({ content: "new low", priority: "low" });
  assert.deepEqual(inbox.list().map((i) => i.content), ["low one", "new low"]);
});

Deno.test("an evicted or cleared question ends its ask with QUESTION_REMOVED", async () => {
  const { inbox } = testInbox({ max_messages: 1 });
  const evicted = inbox.ask({ content: "q1", priority: "low", timeout: 30 });
  await new Promise((resolve) => setTimeout(resolve, 0));
  await inbox.send({ content: "more important", priority: "normal" });
  await assert.rejects(
    evicted,
    (e: unknown) =>
      code("QUESTION_REMOVED")(e) && (e as { details: { reason: string } }).details.reason === "evicted",
  );
  inbox.clear();
  const cleared = inbox.ask({ content: "q2", timeout: 30 });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(inbox.clear(), 1);
  await assert.rejects(
    cleared,
    (e: unknown) =>
      code("QUESTION_REMOVED")(e) && (e as { details: { reason: string } }).details.reason === "cleared",
  );
  assert.equal(inbox.list().length, 0);
});

Deno.test("ask times out with null fields; the question lives timeout + 60 s, capped by max_ttl", async () => {
  const clock = FakeTimers.install({ toFake: ["Date", "setTimeout", "clearTimeout"], now: T0 });
  try {
    const { inbox } = testInbox();
    const asked = inbox.ask({ content: "Anyone?", timeout: 10 });
    await clock.tickAsync(0);
    const [question] = inbox.list();
    assert.equal(question.message_type, "question");
    assert.equal(question.expires_at, T0 / 1000 + 70);
    await clock.tickAsync(10_000);
    const answer = await asked;
    assert.deepEqual(answer, {
      question_id: question.message_id,
      status: "timeout",
      response: null,
      answered_at: null,
      invocation_id: null,
    });
    await clock.tickAsync(59_000);
    assert.equal(inbox.list().length, 1, "still there for the grace minute");
    await clock.tickAsync(1_000);
    assert.equal(inbox.list().length, 0, "expired at timeout + 60");

    const capped = testInbox({ default_ttl: 20, max_ttl: 30 }).inbox;
    const short = capped.ask({ content: "Quick?", timeout: 120 });
    await clock.tickAsync(0);
    assert.equal(capped.list()[0].expires_at, Date.now() / 1000 + 30);
    await clock.tickAsync(30_000);
    assert.equal((await short).status, "timeout", "the wait ends when the question expires");
    assert.equal(capped.list().length, 0);
  } finally {
    clock.uninstall();
  }
});

Deno.test("ask refuses a bad timeout and an abort ends the wait, leaving the question", async () => {
  const { inbox } = testInbox();
  for (const timeout of [0, -1, 3601, "5"]) {
    await assert.rejects(inbox.ask({ content: "x", timeout } as never), code("INVALID_FIELD"));
  }
  await assert.rejects(inbox.ask({ content: "" }), code("INVALID_FIELD"));
  const controller = new AbortController();
  const asked = inbox.ask({ content: "x?", timeout: 60 }, { signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 0));
  controller.abort(new Error("gone"));
  await assert.rejects(asked, { message: "gone" });
  assert.equal(inbox.list().length, 1);
});

Deno.test("expired messages vanish from listings, status and the run block", async () => {
  const clock = FakeTimers.install({ toFake: ["Date"], now: T0 });
  try {
    const { inbox } = testInbox();
    await inbox.send({ content: "short", ttl: 5 });
    await inbox.send({ content: "long", ttl: 50 });
    clock.tick(5_000);
    assert.deepEqual(inbox.list().map((i) => i.content), ["long"]);
    assert.deepEqual(inbox.status(), { enabled: true, pending: 1, questions: 0 });
    assert.ok(!inbox.forRun().block.includes("short"));
  } finally {
    clock.uninstall();
  }
});

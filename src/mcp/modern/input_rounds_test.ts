import assert from "node:assert/strict";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { InputRounds, sessionWithRounds } from "./input_rounds.ts";
import { DEAD_SESSION } from "../_test_context.ts";

const ALL = { elicitation: {}, sampling: {}, roots: {} };
const FORM = {
  message: "Name?",
  requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } },
};
const SAMPLE = {
  messages: [{ role: "user" as const, content: { type: "text" as const, text: "Hi" } }],
  maxTokens: 5,
};
const ACCEPT = { action: "accept", content: { name: "Alice" } };
const REPLY = { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" };
const ROOTS = { roots: [{ uri: "file:///work", name: "work" }] };

async function signalOf(promise: Promise<unknown>): Promise<InputRequiredSignal> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof InputRequiredSignal, `expected the signal, got ${error}`);
    return error;
  }
  assert.fail("expected the call to wait for input");
}

Deno.test("a first round asks under position keys, all pending requests in one signal", async () => {
  const rounds = new InputRounds({ capabilities: ALL });
  const asked = [rounds.elicit(FORM), rounds.sample(SAMPLE), rounds.listRoots(), rounds.elicit(FORM)];
  const signal = await signalOf(Promise.all(asked));
  await Promise.allSettled(asked);
  assert.deepEqual(Object.keys(signal.requests), ["e1", "s1", "r1", "e2"]);
  assert.deepEqual(signal.requests.e1, { method: "elicitation/create", params: FORM });
  assert.deepEqual(signal.requests.s1, { method: "sampling/createMessage", params: SAMPLE });
  assert.deepEqual(signal.requests.r1, { method: "roots/list" });
  assert.deepEqual(signal.answers, {});
  assert.equal(rounds.waiting, true);
  assert.deepEqual(rounds.pending, signal.requests);
});

Deno.test("answers come from this round's inputResponses or the earlier rounds', validated", async () => {
  const rounds = new InputRounds({
    capabilities: ALL,
    answers: { e1: ACCEPT },
    inputResponses: {
      e1: { action: "decline" },
      s1: REPLY,
      r1: ROOTS,
      e2: 12345,
      extra: { action: "accept" },
    },
  });
  // The earlier round's answer wins over one sent again.
  assert.deepEqual(await rounds.elicit(FORM), ACCEPT);
  assert.deepEqual(await rounds.sample(SAMPLE), REPLY);
  assert.deepEqual(await rounds.listRoots(), ROOTS);
  // A malformed answer is asked again, not passed to the call.
  const signal = await signalOf(rounds.elicit({ ...FORM, message: "Again?" }));
  assert.deepEqual(Object.keys(signal.requests), ["e2"]);
  // The answers to carry on: those used, never the unrecognised extra key.
  assert.deepEqual(rounds.answers, { e1: ACCEPT, s1: REPLY, r1: ROOTS });
  assert.deepEqual(signal.answers, rounds.answers);
});

Deno.test("a call may name its keys; a key used twice in one call is refused", async () => {
  const rounds = new InputRounds({ capabilities: ALL, inputResponses: { user_name: ACCEPT } });
  assert.deepEqual(await rounds.elicit(FORM, { key: "user_name" }), ACCEPT);
  await assert.rejects(rounds.elicit(FORM, { key: "user_name" }), /'user_name' is already used/);
  await assert.rejects(rounds.listRoots({ key: "" }), /non-empty string/);
  // Named keys still advance the position: the next default elicitation key is e3.
  const signal = await signalOf(rounds.elicit(FORM));
  assert.deepEqual(Object.keys(signal.requests), ["e3"]);
});

Deno.test("a method the request's capabilities do not declare is refused with MISSING_CLIENT_CAPABILITY", async () => {
  const rounds = new InputRounds({ capabilities: { sampling: {} }, inputResponses: { e1: ACCEPT } });
  assert.equal(rounds.supports("sampling/createMessage"), true);
  assert.equal(rounds.supports("elicitation/create"), false);
  assert.equal(rounds.supports("roots/list"), false);
  await assert.rejects(rounds.elicit(FORM), (error: unknown) => {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, "MISSING_CLIENT_CAPABILITY");
    assert.deepEqual(error.details, { required_capability: "elicitation", method: "elicitation/create" });
    return true;
  });
  await assert.rejects(rounds.listRoots(), /roots capability/);
  assert.equal(rounds.waiting, false);
  assert.deepEqual(rounds.refused, { elicitation: {}, roots: {} });
  const signal = await signalOf(rounds.sample(SAMPLE));
  assert.deepEqual(Object.keys(signal.requests), ["s1"]);
  assert.equal(new InputRounds().supports("elicitation/create"), false);
  assert.equal(new InputRounds().refused, undefined);
});

Deno.test("inputResponses that are not an object count as no answers", async () => {
  for (const inputResponses of [null, 12, "x", [ACCEPT]]) {
    const rounds = new InputRounds({ capabilities: ALL, inputResponses });
    const signal = await signalOf(rounds.elicit(FORM));
    assert.deepEqual(Object.keys(signal.requests), ["e1"]);
  }
});

Deno.test("carried holds only what the verified state brought, never this round's inputResponses", async () => {
  const rounds = new InputRounds({
    capabilities: ALL,
    answers: { e1: ACCEPT, "agentry.approval": "f".repeat(32) },
    inputResponses: { e2: ACCEPT, "agentry.approval": "forged" },
  });
  assert.deepEqual(rounds.carried, { e1: ACCEPT, "agentry.approval": "f".repeat(32) });
  await rounds.elicit(FORM);
  await rounds.elicit(FORM);
  assert.equal("e2" in rounds.carried, false);
  assert.equal(sessionWithRounds({ ...DEAD_SESSION, era: "modern" }, rounds).carried, rounds.carried);
  assert.deepEqual(new InputRounds({ inputResponses: { "agentry.approval": "forged" } }).carried, {});
});

Deno.test("sessionWithRounds asks through the rounds and reports through the request's session", async () => {
  const logged: unknown[] = [];
  const base = {
    ...DEAD_SESSION,
    era: "modern" as const,
    log: (_level: string, data: unknown) => (logged.push(data), Promise.resolve()),
  };
  const rounds = new InputRounds({ capabilities: { roots: {} }, inputResponses: { r1: ROOTS } });
  const session = sessionWithRounds(base, rounds);
  assert.equal(session.era, "modern");
  assert.equal(session.supports("roots/list"), true);
  assert.equal(session.supports("elicitation/create"), false);
  assert.deepEqual(await session.listRoots(), ROOTS);
  await session.log("info", "hello");
  assert.deepEqual(logged, ["hello"]);
  await assert.rejects(session.sample(SAMPLE), /sampling capability/);
});

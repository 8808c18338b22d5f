import assert from "node:assert/strict";
import {
  type InputRequiredResult,
  isInputRequiredResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
} from "@modelcontextprotocol/server";
import { answerWithRounds, MAX_INPUT_ROUNDS, type RoundRequest } from "./answer_with_rounds.ts";
import type { InputRounds } from "./input_rounds.ts";
import { RequestStates } from "./request_state.ts";

const states = new RequestStates("a secret of at least thirty-two bytes, for tests");
const FIRST: RoundRequest = {
  method: "tools/call",
  name: "greet",
  args: { loud: true },
  capabilities: { elicitation: {}, sampling: {} },
};
const form = (message: string) => ({ message, requestedSchema: { type: "object" as const, properties: {} } });
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

/** A call that asks two questions, one after the other, and counts its runs. */
function twoSteps(runs: { count: number }) {
  return async (rounds: InputRounds) => {
    runs.count++;
    const name = await rounds.elicit(form("Name?"));
    const colour = await rounds.elicit(form("Colour?"));
    return `${name.content?.name} likes ${colour.content?.colour}`;
  };
}

function required(result: unknown): InputRequiredResult {
  assert.ok(isInputRequiredResult(result), `expected input_required, got ${JSON.stringify(result)}`);
  return result;
}

Deno.test("a call runs again each round until its answers are all there", async () => {
  const runs = { count: 0 };
  const one = required(await answerWithRounds(states, FIRST, twoSteps(runs)));
  assert.equal(one.resultType, "input_required");
  assert.deepEqual(Object.keys(one.inputRequests ?? {}), ["e1"]);
  assert.equal(typeof one.requestState, "string");
  const two = required(
    await answerWithRounds(
      states,
      { ...FIRST, inputResponses: { e1: accept({ name: "Ada" }) }, requestState: one.requestState },
      twoSteps(runs),
    ),
  );
  assert.deepEqual(Object.keys(two.inputRequests ?? {}), ["e2"]);
  assert.notEqual(two.requestState, one.requestState);
  // The third round sends only its new answer: the first travels in the state.
  const done = await answerWithRounds(
    states,
    { ...FIRST, inputResponses: { e2: accept({ colour: "blue" }) }, requestState: two.requestState },
    twoSteps(runs),
  );
  assert.equal(done, "Ada likes blue");
  assert.equal(runs.count, 3);
});

Deno.test("requests made together go out in one round", async () => {
  const both = (rounds: InputRounds) =>
    Promise.all([rounds.elicit(form("A?")), rounds.sample({ messages: [], maxTokens: 1 })]);
  const result = required(await answerWithRounds(states, FIRST, both));
  assert.deepEqual(Object.keys(result.inputRequests ?? {}), ["e1", "s1"]);
});

Deno.test("a call that swallows the signal and goes on still answers input_required", async () => {
  const careless = async (rounds: InputRounds) => {
    try {
      await rounds.elicit(form("Sure?"));
    } catch {
      // ignored
    }
    return "went on";
  };
  const result = required(await answerWithRounds(states, FIRST, careless));
  assert.deepEqual(Object.keys(result.inputRequests ?? {}), ["e1"]);
});

Deno.test("a tampered state, or one minted for other arguments, is refused before the call runs", async () => {
  const runs = { count: 0 };
  const one = required(await answerWithRounds(states, FIRST, twoSteps(runs)));
  const retry = { ...FIRST, inputResponses: { e1: accept({ name: "Ada" }) } };
  for (
    const request of [
      { ...retry, requestState: `${one.requestState}-TAMPERED` },
      { ...retry, requestState: one.requestState, args: { loud: false } },
      { ...retry, requestState: one.requestState, name: "other" },
      { ...retry, requestState: 7 },
    ]
  ) {
    await assert.rejects(answerWithRounds(states, request, twoSteps(runs)), (error: unknown) => {
      assert.ok(error instanceof ProtocolError);
      assert.equal(error.code, -32602);
      return true;
    });
  }
  assert.equal(runs.count, 1);
});

Deno.test("other errors and plain results pass through", async () => {
  assert.equal(await answerWithRounds(states, FIRST, () => Promise.resolve(42)), 42);
  await assert.rejects(answerWithRounds(states, FIRST, () => Promise.reject(new Error("boom"))), /boom/);
});

Deno.test("a request still asking after the last allowed round is refused", async () => {
  // Each round asks one new question (a key by round), so the answers never suffice.
  const endless = async (rounds: InputRounds) => {
    for (let i = 0;; i++) await rounds.elicit(form(`Question ${i}?`), { key: `q${i}` });
  };
  let request: RoundRequest = FIRST;
  for (let round = 1; round <= MAX_INPUT_ROUNDS; round++) {
    const result = required(await answerWithRounds(states, request, endless));
    const [key] = Object.keys(result.inputRequests ?? {});
    request = { ...FIRST, inputResponses: { [key]: accept({}) }, requestState: result.requestState };
  }
  await assert.rejects(answerWithRounds(states, request, endless), (error: unknown) => {
    assert.ok(error instanceof ProtocolError);
    assert.equal(error.code, -32600);
    assert.deepEqual(error.data, { reason: "too_many_input_rounds" });
    return true;
  });
});

Deno.test("a call that asked for an undeclared capability is answered -32021, however it ended", async () => {
  const rootsAndName = async (rounds: InputRounds) => {
    await rounds.listRoots().catch(() => undefined); // caught: the request still needs roots
    return (await rounds.elicit(form("Name?"))).action.length;
  };
  const uncaught = async (rounds: InputRounds) => (await rounds.listRoots()).roots.length;
  for (const run of [rootsAndName, uncaught]) {
    await assert.rejects(answerWithRounds(states, FIRST, run), (error: unknown) => {
      assert.ok(error instanceof MissingRequiredClientCapabilityError);
      assert.equal(error.code, -32021);
      assert.deepEqual(error.requiredCapabilities, { roots: {} });
      assert.match(
        error.message,
        /tools\/call 'greet' needs client capabilities the request did not declare: roots/,
      );
      return true;
    });
  }
  // A call that checks supports() first does without.
  const careful = (rounds: InputRounds) =>
    Promise.resolve(rounds.supports("roots/list") ? "asked" : "did without roots");
  assert.equal(await answerWithRounds(states, FIRST, careful), "did without roots");
});

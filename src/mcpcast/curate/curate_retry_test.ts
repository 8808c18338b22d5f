import assert from "node:assert/strict";
import { test } from "node:test";
import { McpcastError } from "../errors.ts";
import type { Completer } from "../model/mod.ts";
import { curate } from "./curate.ts";
import type { CurationProgress } from "./options.ts";
import { goodProposal, petSpec, scripted, toolAt } from "./_test_curate.ts";

test("a reply without JSON is retried with feedback asking for the JSON object only", async () => {
  const script = scripted(
    "Sure! Here is my plan: one tool for pets.",
    `\`\`\`json\n${JSON.stringify(goodProposal())}\n\`\`\``,
  );
  const result = await curate(await petSpec(), { complete: script.complete });
  assert.equal(result.attempts, 2);
  assert.deepEqual(result.violations, [["the reply contained no JSON object"]]);
  assert.equal(script.users.length, 2);
  assert.ok(script.users[1].startsWith(script.users[0]), "the retry keeps the catalogue");
  assert.ok(script.users[1].includes("did not contain a JSON object. Reply with ONLY the JSON object"));
  assert.equal(result.promptChars, script.users[0].length);
});

test("violations are fed back with the previous proposal, so the model edits it", async () => {
  const bad = goodProposal();
  toolAt(bad).operations = ["listPets", "getPet"];
  const script = scripted(bad, goodProposal());
  const result = await curate(await petSpec(), { complete: script.complete });
  assert.equal(result.attempts, 2);
  assert.equal(result.violations.length, 1);
  assert.match(result.violations[0][0], /operation 'getPet' can never be called/);
  const feedback = script.users[1].slice(script.users[0].length);
  assert.ok(
    feedback.includes("Your previous proposal broke these rules:\n- tool 'find_pets': operation 'getPet'"),
  );
  assert.ok(feedback.includes(JSON.stringify(bad)), "the previous proposal is in the feedback");
  assert.deepEqual(result.plan.tools[0].routes.map((route) => route.operation_id), ["getPet", "listPets"]);
});

test("a reply that does not fit the shape is fed back naming the field", async () => {
  const script = scripted({ tools: [{ ...toolAt(goodProposal()), risky: true }] }, goodProposal());
  const result = await curate(await petSpec(), { complete: script.complete });
  assert.deepEqual(result.violations, [["the reply does not fit the shape: tools[0].risky: unknown key"]]);
});

test("phantom tools are violations before the last attempt and removed sentences on it", async () => {
  const phantom = goodProposal();
  toolAt(phantom).description = "Find pets by id or page. Check get_health when it fails.";
  const script = scripted(phantom);
  const result = await curate(await petSpec(), { complete: script.complete, maxAttempts: 2 });
  assert.equal(result.attempts, 2);
  assert.match(result.violations[0][0], /names 'get_health', a tool the server will not have/);
  assert.deepEqual(result.removedSentences, ["Check get_health when it fails."]);
  assert.equal(result.plan.tools[0].description, "Find pets by id or page.");
});

test("after the last attempt curation fails with the violations and the advice, never falling back", async () => {
  const bad = goodProposal();
  toolAt(bad).operations = ["getPet", "listPets", "getOwner"];
  const script = scripted(bad);
  const events: CurationProgress[] = [];
  const error = await curate(await petSpec(), {
    complete: script.complete,
    onProgress: (event) => events.push(event),
  }).then(() => undefined, (caught: unknown) => caught);
  assert.ok(error instanceof McpcastError);
  assert.equal(
    error.message,
    "curation failed after 3 attempt(s): tool 'find_pets' lists operation 'getOwner', which is not in the " +
      "catalogue. Re-run with --no-curate for the deterministic plan, or try a stronger model or more attempts.",
  );
  assert.equal(script.users.length, 3);
  assert.deepEqual(events.map((event) => event.kind), [
    "attempt",
    "violations",
    "attempt",
    "violations",
    "attempt",
    "violations",
  ]);
});

test("progress reports each attempt, its violations and the result", async () => {
  const bad = goodProposal();
  toolAt(bad).name = "Find";
  const events: CurationProgress[] = [];
  await curate(await petSpec(), {
    complete: scripted(bad, goodProposal()).complete,
    maxAttempts: 2,
    onProgress: (event) => events.push(event),
  });
  assert.deepEqual(events, [
    { kind: "attempt", attempt: 1, maxAttempts: 2 },
    { kind: "violations", attempt: 1, violations: ["tool name 'Find' must match ^[a-z][a-z0-9_]{0,63}$"] },
    { kind: "attempt", attempt: 2, maxAttempts: 2 },
    { kind: "done", attempts: 2, tools: 1, dropped: 5 },
  ]);
});

test("an abort interrupts a model call in flight and rejects with the signal's reason", async () => {
  const controller = new AbortController();
  let calls = 0;
  const hanging: Completer = () => {
    calls++;
    queueMicrotask(() => controller.abort(new Error("user pressed Ctrl-C")));
    return new Promise<string>(() => {}); // a completer that ignores the signal
  };
  await assert.rejects(
    curate(await petSpec(), { complete: hanging, signal: controller.signal }),
    /user pressed Ctrl-C/,
  );
  assert.equal(calls, 1);
  await assert.rejects(curate(await petSpec(), { complete: hanging, signal: controller.signal }), /Ctrl-C/);
  assert.equal(calls, 1, "an aborted signal makes no model call");
});

test("an abort between attempts stops before the next model call", async () => {
  const controller = new AbortController();
  const bad = goodProposal();
  toolAt(bad).name = "Find";
  const script = scripted(bad, goodProposal());
  await assert.rejects(
    curate(await petSpec(), {
      complete: script.complete,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.kind === "violations") controller.abort(new Error("stop"));
      },
    }),
    /stop/,
  );
  assert.equal(script.users.length, 1);
});

test("a proposal that keeps the rules but would make an invalid plan is fed back with the plan's complaint", async () => {
  const blank = goodProposal();
  toolAt(blank).description = "\u0007\u0007";
  const result = await curate(await petSpec(), { complete: scripted(blank, goodProposal()).complete });
  assert.deepEqual(result.violations, [[
    "the plan would be invalid: tools[0].description: tool description must not be blank",
  ]]);
  assert.equal(result.attempts, 2);
});

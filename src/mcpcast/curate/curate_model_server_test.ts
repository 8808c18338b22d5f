import assert from "node:assert/strict";
import { test } from "node:test";
import { startModelServer } from "../../models/testing/mod.ts";
import { envOf } from "../_test_parse.ts";
import { validatePlan } from "../plan/mod.ts";
import { curate } from "./curate.ts";
import { goodProposal, petSpec, toolAt } from "./_test_curate.ts";

const MODEL = "openai-compatible:scripted";

test("curate through a real local model server: a violation fed back over HTTP, then a valid plan", async () => {
  const bad = goodProposal();
  toolAt(bad).risk = "read";
  toolAt(bad).operations = ["getPet", "listPets", "deletePet"];
  const replies = [`Here you go:\n${JSON.stringify(bad)}`, JSON.stringify(goodProposal())];
  await using server = startModelServer({ respond: () => ({ text: replies.shift() ?? "" }) });
  const result = await curate(await petSpec(), {
    model: MODEL,
    env: envOf({ OPENAI_COMPATIBLE_BASE_URL: server.url }),
    maxTools: 5,
  });
  assert.equal(validatePlan(result.plan).ok, true);
  assert.equal(result.attempts, 2);
  assert.match(
    result.violations[0].join("\n"),
    /has risk 'read', below 'destructive' of its operation 'deletePet'/,
  );
  assert.equal(server.requests.length, 2);
  const [first, second] = server.requests;
  assert.deepEqual(first.tools, []);
  assert.deepEqual(first.messages.map((message) => message.role), ["system", "user"]);
  assert.match(String(first.messages[0].content), /at most 5 tools/);
  assert.match(String(first.messages[1].content), /"operation_id":"deletePet"/);
  assert.match(String(second.messages[1].content), /Your previous proposal broke these rules/);
});

test("the model's requests go through the given fetch", async () => {
  await using server = startModelServer({ respond: () => ({ text: JSON.stringify(goodProposal()) }) });
  const seen: string[] = [];
  const counting: typeof fetch = (input, init) => {
    seen.push(input instanceof Request ? input.url : String(input));
    return fetch(input, init);
  };
  await curate(await petSpec(), {
    model: MODEL,
    env: envOf({ OPENAI_COMPATIBLE_BASE_URL: server.url }),
    fetch: counting,
  });
  assert.deepEqual(seen, [`${server.url}/chat/completions`]);
});

test("a model that cannot be used fails curation at once, naming the model", async () => {
  await using server = startModelServer({ respond: () => ({ status: 400 }) });
  await assert.rejects(
    curate(await petSpec(), { model: MODEL, env: envOf({ OPENAI_COMPATIBLE_BASE_URL: server.url }) }),
    /model 'openai-compatible:scripted' could not be used/,
  );
  assert.equal(server.requests.length, 1);
});

test("an abort ends a model request in flight", async () => {
  await using server = startModelServer({ delayMs: 10_000, respond: () => ({ text: "{}" }) });
  const controller = new AbortController();
  const started = Date.now();
  const running = curate(await petSpec(), {
    model: MODEL,
    env: envOf({ OPENAI_COMPATIBLE_BASE_URL: server.url }),
    signal: controller.signal,
    onProgress: (event) => {
      if (event.kind === "attempt") setTimeout(() => controller.abort(new Error("interrupted")), 50);
    },
  });
  await assert.rejects(running, /interrupted/);
  assert.ok(Date.now() - started < 5_000, "the abort did not wait for the reply");
});

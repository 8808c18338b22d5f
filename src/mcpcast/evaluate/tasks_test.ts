import assert from "node:assert/strict";
import { test } from "node:test";
import { McpcastError } from "../errors.ts";
import { modelCompleter } from "../model/mod.ts";
import { petPlan, scriptedModel, tasksReply, userPrompt } from "./_test_eval.ts";
import { checkTasks, generateTasks, keepTasks } from "./tasks.ts";

const TOOLS = new Set(["get_pet", "list_pets"]);

test("generated items that are invalid or name unknown tools are discarded", () => {
  const tasks = keepTasks(
    [
      "not an object",
      { id: "a", prompt: "", expected_tool: "get_pet" },
      { id: "b", prompt: "Show pet 7", expected_tool: "feed_pet" },
      { id: "c", prompt: "Show pet 7", expected_tool: "get_pet", rationale: " by id " },
      { id: "d", prompt: "List pets", expected_tool: "list_pets", rationale: 3 },
    ],
    TOOLS,
    10,
  );
  assert.deepEqual(tasks, [
    { id: "c", prompt: "Show pet 7", expected_tool: "get_pet", rationale: "by id" },
    { id: "d", prompt: "List pets", expected_tool: "list_pets" },
  ]);
});

test("missing and repeated ids are renumbered t1, t2, ... without clashing", () => {
  const tasks = keepTasks(
    [
      { prompt: "one", expected_tool: "get_pet" },
      { id: "t1", prompt: "two", expected_tool: "get_pet" },
      { id: "t1", prompt: "three", expected_tool: "get_pet" },
      { id: "x", prompt: "four", expected_tool: "get_pet" },
    ],
    TOOLS,
    10,
  );
  assert.deepEqual(tasks.map((task) => task.id), ["t2", "t1", "t3", "x"]);
});

test("at most the number asked for is kept", () => {
  const items = Array.from({ length: 5 }, (_, i) => ({ prompt: `p${i}`, expected_tool: "get_pet" }));
  assert.equal(keepTasks(items, TOOLS, 3).length, 3);
});

test("the model writes tasks from the visible catalogue through the local model server", async () => {
  const { plan } = await petPlan();
  await using model = scriptedModel({
    tasks: () => tasksReply([{ prompt: "Show me pet 7", expected_tool: "get_pet" }, { prompt: "x" }]),
  });
  const complete = modelCompleter(model.model, { env: model.env });
  const tasks = await generateTasks(plan, plan.tools.slice(0, 4), { complete, count: 5 });
  assert.deepEqual(tasks, [{ id: "t1", prompt: "Show me pet 7", expected_tool: "get_pet" }]);
  const prompt = userPrompt(model.requests[0]);
  assert.match(prompt, /^Write 5 tasks for this tool set \(API: test\)\./);
  assert.match(prompt, /"name":"get_pet","risk":"read"/);
  assert.match(prompt, /"params":\{"petId":\{"required":true,"type":"string"\}\}/);
  assert.doesNotMatch(prompt, /delete_pet/); // not in the catalogue given
});

test("a reply without JSON, or without a usable task, is an McpcastError", async () => {
  const { plan } = await petPlan();
  const tools = plan.tools;
  await assert.rejects(
    generateTasks(plan, tools, { complete: () => Promise.resolve("no idea"), count: 3 }),
    (error) => error instanceof McpcastError && /did not contain a JSON object/.test(error.message),
  );
  await assert.rejects(
    generateTasks(plan, tools, { complete: () => Promise.resolve('{"tasks":[{"prompt":"x"}]}'), count: 3 }),
    (error) => error instanceof McpcastError && /no usable task/.test(error.message),
  );
});

test("an explicit task list must be valid as a whole", () => {
  const good = { id: "a", prompt: "Show pet 7", expected_tool: "get_pet" };
  assert.deepEqual(checkTasks([good], TOOLS), [good]);
  const refusals: Array<[unknown[], RegExp]> = [
    [[], /empty/],
    [[good, { ...good }], /task 2 repeats the id/],
    [[{ ...good, expected_tool: "feed_pet" }], /task 1 \('a'\) expects a tool the server does not list/],
    [[{ ...good, prompt: " " }], /non-empty "prompt"/],
    [[{ prompt: "x", expected_tool: "get_pet" }], /non-empty "id"/],
    [[{ ...good, extra: 1 }], /unknown fields: extra/],
    [["x"], /must be an object/],
  ];
  for (const [tasks, message] of refusals) {
    assert.throws(
      () => checkTasks(tasks, TOOLS),
      (error) => error instanceof McpcastError && message.test(error.message),
    );
  }
});

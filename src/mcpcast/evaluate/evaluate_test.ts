import assert from "node:assert/strict";
import { test } from "node:test";
import { localServer } from "../_test_parse.ts";
import { McpcastError } from "../errors.ts";
import type { McpcastPlan } from "../plan/mod.ts";
import { buildPlanServer } from "../runtime/mod.ts";
import type { Logger } from "../../mcp/mod.ts";
import { isTaskRequest, petPlan, scriptedModel, tasksReply } from "./_test_eval.ts";
import { AGENT_INSTRUCTIONS } from "./run_task.ts";
import { evaluate } from "./evaluate.ts";
import type { EvalProgress, EvalTask } from "./types.ts";

const planServer = (plan: McpcastPlan) => (options: Parameters<typeof buildPlanServer>[1]) =>
  buildPlanServer(plan, options);

const TASKS: EvalTask[] = [
  { id: "t1", prompt: "Show me pet 7", expected_tool: "get_pet" },
  { id: "t2", prompt: "Delete pet 7", expected_tool: "delete_pet" },
  { id: "t3", prompt: "List all pets", expected_tool: "list_pets" },
  { id: "t4", prompt: "Add a pet named Rex", expected_tool: "create_pet" },
];

test("a full run: the model writes tasks, the agent calls through MCP, the report scores it", async () => {
  const { plan, operations } = await petPlan();
  await using model = scriptedModel({
    tasks: () => tasksReply(TASKS.map(({ id: _id, ...task }) => task)),
    agent: {
      "Show me pet 7": [{ name: "get_pet", arguments: { petId: "7" } }],
      "Delete pet 7": [
        { name: "get_pet", arguments: { petId: "7" } },
        { name: "delete_pet", arguments: { petId: "7" } },
      ],
      "List all pets": [{ name: "list_pets", arguments: { limit: "many" } }],
      "Add a pet named Rex": [{ name: "create_pet", arguments: { name: "Rex" } }],
    },
  });
  const events: string[] = [];
  let logger: Logger | undefined;
  const build = (options: Parameters<typeof buildPlanServer>[1]) => {
    logger = options?.logger;
    return buildPlanServer(plan, options);
  };
  const report = await evaluate(plan, build, {
    model: model.model,
    env: model.env,
    tasks: 4,
    operations,
    liveReads: false,
    onProgress: (event: EvalProgress) => events.push(`${event.kind} ${event.index}/${event.total}`),
  });
  assert.deepEqual([report.grade, report.score, report.succeeded, report.total], ["B", 0.75, 3, 4]);
  assert.deepEqual(report.results.map((result) => result.task.id), ["t1", "t2", "t3", "t4"]);
  assert.deepEqual(report.confusedPairs, [{ expected: "delete_pet", called: "get_pet", count: 1, of: 1 }]);
  assert.equal(report.paramErrorRate, 0.2);
  assert.deepEqual(report.results[2].calls, [
    { tool: "list_pets", arguments: { limit: "many" }, ok: false, error_code: "VALIDATION_ERROR" },
  ]);
  assert.deepEqual(report.results[0].calls, [{ tool: "get_pet", arguments: { petId: "7" }, ok: true }]);
  assert.equal(report.results[0].reply, "Done.");
  assert.deepEqual(report.notCovered, ["list_my_pets"]);
  assert.deepEqual([report.mockedRequests, report.liveRequests, report.unmatched], [4, 0, []]);
  assert.equal(report.toolCount, 5);
  // The auto-approver's info lines stay out of the caller's display; warnings still show.
  assert.equal(logger?.enabled("info"), false);
  assert.equal(logger?.enabled("warning"), true);
  assert.ok(report.toolListTokens > 100);
  assert.match(report.fixes.map((fix) => fix.text).join("\n"), /`delete_pet` vs `get_pet`/);
  assert.deepEqual(events.slice(0, 3), ["task_started 1/4", "task_ended 1/4", "task_started 2/4"]);
  const agentTurn = model.requests.find((request) => !isTaskRequest(request))!;
  assert.deepEqual(agentTurn.tools.toSorted(), [
    "create_pet",
    "delete_pet",
    "get_pet",
    "list_my_pets",
    "list_pets",
  ]);
  assert.equal(agentTurn.messages[0].content, AGENT_INSTRUCTIONS);
});

test("a read tool reaches the real upstream on 127.0.0.1 when live reads are on, a mock when off", async () => {
  await using upstream = await localServer(() => Response.json({ id: 7, name: "Live Rex" }));
  const { plan, operations } = await petPlan({ baseUrl: upstream.origin });
  await using model = scriptedModel({
    agent: { "Show me pet 7": [{ name: "get_pet", arguments: { petId: "7" } }] },
  });
  const options = { client: model.client, tasks: [TASKS[0]], operations };
  const live = await evaluate(plan, planServer(plan), options);
  assert.equal(upstream.requests.length, 1);
  assert.equal(new URL(upstream.requests[0].url).pathname, "/pets/7");
  assert.deepEqual([live.liveRequests, live.mockedRequests, live.grade], [1, 0, "A"]);
  const mocked = await evaluate(plan, planServer(plan), { ...options, liveReads: false });
  assert.equal(upstream.requests.length, 1);
  assert.deepEqual([mocked.liveRequests, mocked.mockedRequests], [0, 1]);
});

test("an upstream request no route serves is answered 502 and reported", async () => {
  const { plan } = await petPlan();
  const moved: McpcastPlan = { ...plan, api: { ...plan.api, base_url: "https://moved.example.com" } };
  await using model = scriptedModel({
    agent: { "Show me pet 7": [{ name: "get_pet", arguments: { petId: "7" } }] },
  });
  const report = await evaluate(plan, planServer(moved), { client: model.client, tasks: [TASKS[0]] });
  assert.deepEqual(report.unmatched, ["GET /pets/7"]);
  assert.deepEqual(report.results[0].calls[0], {
    tool: "get_pet",
    arguments: { petId: "7" },
    ok: false,
    error_code: "UPSTREAM_ERROR",
    status: 502,
  });
  assert.deepEqual([report.score, report.grade], [0.4, "D"]);
  assert.equal(report.fixes[0].kind, "problem");
  assert.match(report.fixes[0].text, /No tool route matched `GET \/pets\/7`/);
});

test("an api-key plan is evaluated with the eval key, the process environment untouched", async () => {
  const { plan } = await petPlan({ auth: "api-key" });
  await using model = scriptedModel({
    agent: { "Delete pet 7": [{ name: "delete_pet", arguments: { petId: "7" } }] },
  });
  const report = await evaluate(plan, planServer(plan), {
    client: model.client,
    tasks: [TASKS[1]],
    env: () => undefined,
  });
  assert.deepEqual(report.results[0].calls.map((call) => call.ok), [true]);
  assert.equal(Deno.env.get("MCPCAST_CLIENT_KEYS"), undefined);
});

test("when every task crashed there is no grade: McpcastError", async () => {
  const { plan } = await petPlan();
  await using model = scriptedModel({
    agent: { "Show me pet 7": { status: 400 }, "Delete pet 7": { status: 400 } },
  });
  await assert.rejects(
    evaluate(plan, planServer(plan), { client: model.client, tasks: TASKS.slice(0, 2) }),
    (error) => error instanceof McpcastError && /all 2 task\(s\) crashed/.test(error.message),
  );
});

test("one crashed task is recorded and the run still grades", async () => {
  const { plan } = await petPlan();
  await using model = scriptedModel({
    agent: {
      "Show me pet 7": { status: 400 },
      "Delete pet 7": [{ name: "delete_pet", arguments: { petId: "7" } }],
    },
  });
  const report = await evaluate(plan, planServer(plan), { client: model.client, tasks: TASKS.slice(0, 2) });
  assert.equal(report.crashed, 1);
  assert.ok(report.results[0].error !== undefined && report.results[0].error.length <= 200);
  assert.match(report.fixes[0].text, /^1 task crashed/);
  assert.equal(report.score, 0.5);
});

test("an explicit task list asks the model for no tasks", async () => {
  const { plan } = await petPlan();
  await using model = scriptedModel({ agent: {} });
  const report = await evaluate(plan, planServer(plan), {
    model: model.model,
    env: model.env,
    tasks: [TASKS[2]],
  });
  assert.equal(report.total, 1);
  assert.equal(model.requests.some(isTaskRequest), false);
  assert.equal(report.grade, "F"); // the agent answered without calling anything
});

test("aborting stops the run with the signal's reason", async () => {
  const { plan } = await petPlan();
  await using model = scriptedModel({
    agent: { "Show me pet 7": [{ name: "get_pet", arguments: { petId: "7" } }] },
  });
  const controller = new AbortController();
  const reason = new Error("stopped by the user");
  const started: number[] = [];
  await assert.rejects(
    evaluate(plan, planServer(plan), {
      client: model.client,
      tasks: TASKS,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.kind !== "task_started") return;
        started.push(event.index);
        if (event.index === 2) controller.abort(reason);
      },
    }),
    (error) => error === reason,
  );
  assert.deepEqual(started, [1, 2]);
});

test("options are checked before anything runs", async () => {
  const { plan } = await petPlan();
  let built = 0;
  const build = (options: Parameters<typeof buildPlanServer>[1]) => {
    built++;
    return buildPlanServer(plan, options);
  };
  const complete = () => Promise.resolve("{}");
  const client = { provider: "none", model: "none", complete: () => Promise.reject(new Error("unused")) };
  const refusals: Array<[Record<string, unknown>, RegExp]> = [
    [{ complete, tasks: 2, modle: "x" }, /unknown option 'modle'/],
    [{ model: "openai-compatible:x", complete }, /one of `model` and `complete`/],
    [{ complete, tasks: 0 }, /tasks must be an integer from 1/],
    [{ complete, tasks: 2 }, /needs `client` or `model`/],
    [{ tasks: [TASKS[0]] }, /needs `client` or `model`/],
    [{ complete, client, maxAgentIterations: 0 }, /maxAgentIterations/],
    [{ complete, client, headers: { a: 1 } }, /headers/],
    [{ complete, client, liveReads: "yes" }, /liveReads/],
  ];
  for (const [options, message] of refusals) {
    await assert.rejects(
      evaluate(plan, build, options as never),
      (error) => error instanceof McpcastError && message.test(error.message),
      String(message),
    );
  }
  assert.equal(built, 0);
});

test("`fetch` serves live reads and `headers` reach the server on every MCP request", async () => {
  await using upstream = await localServer(() => Response.json({ id: 7 }));
  const { plan } = await petPlan({ baseUrl: upstream.origin, auth: "passthrough" });
  await using model = scriptedModel({
    agent: { "Show me pet 7": [{ name: "get_pet", arguments: { petId: "7" } }] },
  });
  const report = await evaluate(plan, planServer(plan), {
    client: model.client,
    tasks: [TASKS[0]],
    headers: { authorization: "Bearer tok-eval-5555" },
  });
  assert.equal(report.succeeded, 1);
  assert.equal(upstream.requests[0].headers.get("authorization"), "Bearer tok-eval-5555");
  const seen: string[] = [];
  const fake = ((request: Request) => {
    seen.push(request.url);
    return Promise.resolve(Response.json({ id: 7 }));
  }) as typeof fetch;
  await evaluate(plan, planServer(plan), { client: model.client, tasks: [TASKS[0]], fetch: fake });
  assert.deepEqual(seen, [`${upstream.origin}/pets/7`]);
  assert.equal(upstream.requests.length, 1);
});

test("maxAgentIterations bounds the model turns of a task", async () => {
  const { plan } = await petPlan();
  const again = Array.from({ length: 10 }, () => ({ name: "list_pets", arguments: {} }));
  await using model = scriptedModel({ agent: { "List all pets": again } });
  const report = await evaluate(plan, planServer(plan), {
    client: model.client,
    tasks: [TASKS[2]],
    maxAgentIterations: 3,
    liveReads: false,
  });
  assert.equal(report.results[0].calls.length, 3);
  assert.equal(model.requests.length, 3);
});

test("a call of a tool the server does not have is recorded as a failed first pick", async () => {
  const { plan } = await petPlan();
  await using model = scriptedModel({
    agent: {
      "Show me pet 7": [
        { name: "feed_pet", arguments: { petId: "7" } },
        { name: "get_pet", arguments: { petId: "7" } },
      ],
    },
  });
  const report = await evaluate(plan, planServer(plan), {
    client: model.client,
    tasks: [TASKS[0]],
    liveReads: false,
  });
  const [first, second] = report.results[0].calls;
  assert.deepEqual([first.tool, first.ok, typeof first.error_code], ["feed_pet", false, "string"]);
  assert.equal(second.ok, true);
  assert.deepEqual(report.confusedPairs, [{ expected: "get_pet", called: "feed_pet", count: 1, of: 1 }]);
  assert.deepEqual([report.successRate, report.selectionRate, report.score], [1, 0, 0.6]);
});

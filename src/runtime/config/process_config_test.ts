import assert from "node:assert/strict";
import { parseProcessConfig } from "./issues.ts";
import { DEFAULT_MODEL, PROCESS_CONFIG_SHAPE } from "./process_config.ts";
import { expectIssues, expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty config resolves every section to its defaults", () => {
  const config = expectOk(parseProcessConfig({}));
  assert.equal(config.model, DEFAULT_MODEL);
  assert.equal(config.instructions, "");
  assert.equal(config.execution_mode, "strict");
  assert.deepEqual(config.servers, {});
  assert.deepEqual(config.triggers, []);
  assert.deepEqual(config.hooks, []);
  assert.equal(config.concurrency, 1);
  assert.equal(config.idle_timeout, 0);
  assert.equal(config.inbox.max_messages, 50);
  assert.equal(config.budget.on_exceeded, "pause");
  assert.equal(config.health.stuck_threshold, 3);
  assert.equal(config.mission.eval_every, 1);
  assert.equal(config.context.conversation_max_messages, 100);
  assert.equal(config.trigger_delivery.max_payload_chars, 20000);
  assert.equal(config.open_mode.allow_tool_creation, true);
  assert.equal(config.secrets.revoke_on_stop, true);
  assert.equal(config.journal, undefined);
  assert.equal(config.guardrails, undefined);
});

Deno.test("sections given as {} resolve the same as absent sections", () => {
  const sections = [
    "inbox",
    "budget",
    "health",
    "mission",
    "context",
    "trigger_delivery",
    "open_mode",
    "secrets",
  ];
  const explicit = expectOk(parseProcessConfig(Object.fromEntries(sections.map((name) => [name, {}]))));
  assert.deepEqual(explicit, expectOk(parseProcessConfig({})));
});

Deno.test("default values are fresh for every parse", () => {
  const first = expectOk(parseProcessConfig({}));
  first.triggers.push({ type: "message", topic: "x", custom_config: {} });
  first.budget.tool_costs.x = { cost_weight: 2, irreversible: false };
  const second = expectOk(parseProcessConfig({}));
  assert.deepEqual(second.triggers, []);
  assert.deepEqual(second.budget.tool_costs, {});
});

Deno.test("top-level fields are typed strictly", () => {
  assert.equal(
    issueAt(parseProcessConfig({ concurrency: "2" }), "concurrency").expected,
    "an integer from 1 to 100 (got a string)",
  );
  assert.match(issueAt(parseProcessConfig({ concurrency: 101 }), "concurrency").expected, /out of range/);
  assert.match(issueAt(parseProcessConfig({ idle_timeout: -1 }), "idle_timeout").expected, />= 0/);
  assert.equal(
    issueAt(parseProcessConfig({ execution_mode: "free" }), "execution_mode").expected,
    'one of "strict", "open"',
  );
  assert.match(
    issueAt(parseProcessConfig({ instructions: 42 }), "instructions").expected,
    /a string \(got a number\)/,
  );
});

Deno.test("the model must be a provider:model string", () => {
  assert.equal(
    expectOk(parseProcessConfig({ model: "anthropic:claude-sonnet-4" })).model,
    "anthropic:claude-sonnet-4",
  );
  for (const model of ["gpt-5", "OpenAI:gpt", "openai:", "openai: gpt"]) {
    assert.match(issueAt(parseProcessConfig({ model }), "model").expected, /<provider>:<model>/, model);
  }
});

Deno.test("an unknown top-level field is refused and the allowed fields are listed", () => {
  const issues = expectIssues(parseProcessConfig({ name: "x", memory: {} }));
  assert.deepEqual(issues.map((issue) => issue.field), ["name", "memory"]);
  assert.match(
    issues[0].expected,
    /^no such field; allowed: model, instructions, execution_mode, servers, triggers/,
  );
});

Deno.test("a full config parses with its nested values intact", () => {
  const config = expectOk(parseProcessConfig({
    model: "openai:gpt-5",
    instructions: "Watch ${NOT_CHECKED_HERE}",
    execution_mode: "open",
    servers: { docs: { url: "https://mcp.example/docs" } },
    triggers: [{ type: "cron", cron_expression: "*/10 * * * *", cron_timezone: "Europe/Berlin" }],
    journal: { level: "full", backend: "sqlite", path: "journal" },
    context: { writable_keys: ["status"], initial_state: { status: "new" } },
    hooks: [{ event: "run_start", command: "echo" }],
    concurrency: 4,
  }));
  assert.equal(config.execution_mode, "open");
  assert.equal(config.triggers[0].type, "cron");
  assert.deepEqual(config.journal, { level: "full", backend: "sqlite", path: "journal" });
  assert.equal(config.concurrency, 4);
  assert.equal(PROCESS_CONFIG_SHAPE.model.safeParse(undefined).data, DEFAULT_MODEL);
});

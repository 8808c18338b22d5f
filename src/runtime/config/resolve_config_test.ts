import assert from "node:assert/strict";
import { parseProcessConfig, type ProcessConfigInput } from "./mod.ts";
import { ConfigReferenceError, referenceIssues, resolveConfig } from "./resolve_config.ts";
import { expectOk } from "./_test_parse.ts";

const SECRET_VAR = "ORDERS_WEBHOOK_SECRET";

/** The manifest example of docs/cli.md: a cron trigger, then a webhook whose secret is a reference. */
const ordersConfig = () =>
  expectOk(parseProcessConfig({
    triggers: [
      { type: "cron", cron_expression: "0 8 * * 1-5" },
      { type: "webhook", webhook_path: "/orders", hmac_secret: `\${${SECRET_VAR}}` },
    ],
  }));

const envOf = (values: Record<string, string>) => (name: string) => values[name];

Deno.test("a reference to an unset variable names the field and the variable", () => {
  assert.deepEqual(referenceIssues(ordersConfig(), envOf({})), [
    { field: "triggers[1].hmac_secret", expected: "${ORDERS_WEBHOOK_SECRET} is not set" },
  ]);
});

Deno.test("a variable the process may not read names why instead of 'not set'", () => {
  const issues = referenceIssues(ordersConfig(), envOf({}), {
    unreadable: (name) => `run with --allow-env=${name}`,
  });
  assert.deepEqual(issues, [{
    field: "triggers[1].hmac_secret",
    expected: "${ORDERS_WEBHOOK_SECRET} may not be read: run with --allow-env=ORDERS_WEBHOOK_SECRET",
  }]);
});

Deno.test("a secret too short once resolved names the rule and its length, never the value", () => {
  let error: unknown;
  try {
    resolveConfig(ordersConfig(), envOf({ [SECRET_VAR]: "short1234" }));
  } catch (thrown) {
    error = thrown;
  }
  assert.ok(error instanceof ConfigReferenceError);
  assert.deepEqual(error.issues, [{
    field: "triggers[1].hmac_secret",
    expected: "must be at least 16 characters (got 9)",
  }]);
  assert.equal(error.message, "triggers[1].hmac_secret: must be at least 16 characters (got 9)");
  assert.ok(!error.message.includes("short1234"));
});

Deno.test("a long enough secret resolves; instructions and secret values are left as written", () => {
  const config = expectOk(parseProcessConfig({
    instructions: "Mention ${NOT_A_VAR} literally.",
    secrets: { enabled: true, secrets: { KEY: "${SECRET_STORE_VAR}" } },
    triggers: [{ type: "webhook", hmac_secret: `\${${SECRET_VAR}}` }],
  }));
  assert.deepEqual(referenceIssues(config, envOf({ [SECRET_VAR]: "a-long-shared-secret" })), []);
  const resolved = resolveConfig(config, envOf({ [SECRET_VAR]: "a-long-shared-secret" }));
  const webhook = resolved.triggers[0];
  assert.equal(webhook.type === "webhook" ? webhook.hmac_secret : undefined, "a-long-shared-secret");
  assert.equal(resolved.instructions, "Mention ${NOT_A_VAR} literally.");
  assert.equal(resolved.secrets.secrets.KEY, "${SECRET_STORE_VAR}");
});

Deno.test("a resolved config parses again to itself, so a deploy may be given either form", () => {
  const input: ProcessConfigInput = {
    instructions: "x",
    servers: { fs: { command: "mcp-fs", args: ["."] }, web: { url: "https://mcp.example/mcp" } },
    triggers: [
      { type: "cron", cron_expression: "0 * * * *" },
      { type: "webhook", hmac_secret: "0123456789abcdef" },
      { type: "file_watch", watch_path: "./inbox" },
      { type: "event", event_type: "order.created" },
      { type: "message", topic: "orders.*" },
    ],
    hooks: [
      { event: "run_start", command: "touch", args: ["/tmp/x"] },
      { event: "pre_tool_call", command: "check", fail_closed: true, tools: ["a"] },
      { event: "run_end", callback: () => undefined },
    ],
    context: { memory_provider: "file", memory_persist_directory: "./memory" },
    budget: { max_runs_per_day: 5 },
    journal: {},
    execution_mode: "open",
  };
  const once = expectOk(parseProcessConfig(input));
  assert.deepEqual(expectOk(parseProcessConfig(once)), once);
});

import assert from "node:assert/strict";
import { McpcastError } from "../errors.ts";
import { envOf } from "./_test_runtime.ts";
import { readRuntimeConfig } from "./config.ts";

const SECRET = "k-3c9d0a71e5";

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof McpcastError);
    return error.message;
  }
  assert.fail("expected a refusal");
}

Deno.test("runtime settings default as documented and read MCPCAST_* overrides", () => {
  const defaults = readRuntimeConfig(envOf());
  assert.deepEqual(defaults, {
    baseUrl: undefined,
    timeoutSeconds: 30,
    maxResponseBytes: 1_048_576,
    errorExcerptChars: 500,
    approvalTimeoutSeconds: 300,
    maxPending: 100,
    maxPendingPerTenant: 40,
    maxPendingPerClient: 20,
    allowInsecureHttp: false,
    public: false,
  });
  const set = readRuntimeConfig(envOf({
    MCPCAST_BASE_URL: " https://staging.example.com/api/ ",
    MCPCAST_TIMEOUT: "2.5",
    MCPCAST_ERROR_EXCERPT_CHARS: "0",
    MCPCAST_ALLOW_INSECURE_HTTP: "1",
  }));
  assert.equal(set.baseUrl, "https://staging.example.com/api");
  assert.equal(set.timeoutSeconds, 2.5);
  assert.equal(set.errorExcerptChars, 0);
  assert.equal(set.allowInsecureHttp, true);
});

Deno.test("invalid settings are refused naming the variable, never the value", () => {
  const cases: Array<[string, string]> = [
    ["MCPCAST_TIMEOUT", `0${SECRET}`],
    ["MCPCAST_TIMEOUT", "0"],
    ["MCPCAST_MAX_RESPONSE_BYTES", "1.5"],
    ["MCPCAST_APPROVAL_TIMEOUT", "90000"],
    ["MCPCAST_ALLOW_INSECURE_HTTP", "yes"],
    ["MCPCAST_BASE_URL", `https://user:${SECRET}@api.example.com`],
    ["MCPCAST_BASE_URL", `https://api.example.com/?key=${SECRET}`],
  ];
  for (const [name, value] of cases) {
    const message = refusal(() => readRuntimeConfig(envOf({ [name]: value })));
    assert.ok(message.includes(name), message);
    assert.ok(!message.includes(SECRET), message);
  }
});

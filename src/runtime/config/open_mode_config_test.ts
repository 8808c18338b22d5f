import assert from "node:assert/strict";
import { parseSection } from "./issues.ts";
import { expectOk, issueAt } from "./_test_parse.ts";

Deno.test("an empty open_mode section allows everything with the default caps", () => {
  assert.deepEqual(expectOk(parseSection("open_mode", {})), {
    allow_tool_creation: true,
    allow_mcp_connect: true,
    allow_trigger_management: true,
    allowed_mcp_urls: [],
    max_custom_tools: 20,
    max_dynamic_triggers: 10,
    max_instruction_length: 10000,
  });
});

Deno.test("allowed_mcp_urls holds only http(s) URLs", () => {
  assert.deepEqual(
    expectOk(parseSection("open_mode", { allowed_mcp_urls: ["https://mcp.example/x"] })).allowed_mcp_urls,
    [
      "https://mcp.example/x",
    ],
  );
  assert.match(
    issueAt(parseSection("open_mode", { allowed_mcp_urls: ["ws://x"] }), "open_mode.allowed_mcp_urls[0]")
      .expected,
    /http\(s\) URL/,
  );
});

Deno.test("open mode caps keep their bounds", () => {
  assert.match(
    issueAt(parseSection("open_mode", { max_instruction_length: 99 }), "open_mode.max_instruction_length")
      .expected,
    />= 100/,
  );
  assert.match(
    issueAt(parseSection("open_mode", { max_custom_tools: -1 }), "open_mode.max_custom_tools").expected,
    />= 0/,
  );
  assert.equal(
    issueAt(parseSection("open_mode", { allow_tool_creation: "no" }), "open_mode.allow_tool_creation")
      .expected,
    "true or false (got a string)",
  );
});

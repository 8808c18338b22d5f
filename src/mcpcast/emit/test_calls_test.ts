import assert from "node:assert/strict";
import { parsePlan } from "../plan/schema.ts";
import { emitPlan } from "./_test_emit.ts";
import { testCalls } from "./test_calls.ts";

Deno.test("tests call read and gated tools whose example passes, under the plan's base URL", () => {
  const { reads, gated } = testCalls(emitPlan());
  assert.deepEqual(reads.map((call) => [call.tool, call.method]), [["get_pet", "GET"], [
    "list_orders",
    "GET",
  ]]);
  assert.match(reads[0].target, /^\/v1\/pets\/7\?v=/);
  assert.deepEqual(gated.map((call) => call.tool), ["create_order"]);
  const strict = parsePlan({
    version: 1,
    profile: "read-only",
    api: { name: "t", base_url: "https://h.example" },
    tools: [{
      name: "get_version",
      description: "Get a version.",
      risk: "read",
      routes: [{
        operation_id: "v",
        method: "GET",
        path: "/v/{v}",
        params: { v: { location: "path", required: true } },
      }],
      params: { v: { required: true, json_schema: { type: "string", pattern: "^\\d+$" } } },
      example: { v: "string" },
    }],
  });
  assert.deepEqual(
    testCalls(strict),
    { reads: [], gated: [] },
    "an example the schema refuses is not called",
  );
});

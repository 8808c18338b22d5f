import assert from "node:assert/strict";
import { ToolError } from "../../mcp/mod.ts";
import { parsePlan } from "../plan/mod.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { fakeUpstream, toolOf } from "./_test_runtime.ts";
import { checkArguments } from "./argument_check.ts";
import { Upstream } from "./upstream.ts";

function refusal(work: () => unknown): ToolError {
  try {
    work();
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
    return error;
  }
  assert.fail("the arguments should have been refused");
}

const formats = parsePlan({
  api: { name: "things", base_url: "https://api.example.com" },
  tools: [{
    name: "get_thing",
    description: "Fetch a thing.",
    risk: "read",
    routes: [{
      operation_id: "getThing",
      method: "GET",
      path: "/things/{id}",
      params: {
        id: { location: "path", required: true },
        since: { location: "query" },
        v: { location: "query" },
      },
    }],
    params: {
      id: { required: true, json_schema: { type: "string", format: "uuid" } },
      since: {
        json_schema: {
          type: "object",
          properties: {
            at: { type: "string", format: "date-time" },
            mail: { type: "string", format: "email" },
          },
        },
      },
      v: { hidden: true, default: "1" },
    },
  }],
});
const ID = "123e4567-e89b-12d3-a456-426614174000";

Deno.test("an argument the tool does not advertise is refused, naming it and the tool's own", () => {
  const tool = toolOf(formats, "get_thing");
  const error = refusal(() => checkArguments(tool, { id: ID, sinse: {} }));
  assert.equal(error.code, "VALIDATION_ERROR");
  assert.equal(error.message, "Unknown argument 'sinse'. This tool takes: id, since");
  const hidden = refusal(() => checkArguments(tool, { id: ID, v: "2", x: 1 }));
  assert.equal(hidden.message, "Unknown arguments 'v', 'x'. This tool takes: id, since");
});

Deno.test("string formats are checked at every depth, naming the argument and the path, not the value", () => {
  const tool = toolOf(formats, "get_thing");
  const top = refusal(() => checkArguments(tool, { id: "secret-not-a-uuid" }));
  assert.equal(top.message, `Argument 'id' must match format "uuid"`);
  assert.ok(!JSON.stringify(top.toPayload()).includes("secret-not-a-uuid"));
  const nested = refusal(() => checkArguments(tool, { id: ID, since: { at: "2026-01-15" } }));
  assert.equal(nested.message, `Argument 'since' at /at must match format "date-time"`);
  checkArguments(tool, { id: ID, since: { at: "2026-01-15T09:30:00Z", mail: "ada@example.com" } });
});

Deno.test("Upstream.call refuses unknown arguments before any request is sent", async () => {
  const plan = petPlan();
  const fake = fakeUpstream();
  const upstream = new Upstream(plan.api, { fetch: fake.fetch, tools: plan.tools });
  const call = upstream.call(toolOf(plan, "get_pet"), { petId: "7", pet_id: "8" }, {
    meta: { authorization: `Bearer ${TOKEN}` },
  });
  await assert.rejects(call, (error) => error instanceof ToolError && error.code === "VALIDATION_ERROR");
  assert.equal(fake.seen.length, 0);
});

import assert from "node:assert/strict";
import { type McpcastPlan, parsePlan, validatePlan } from "../plan/mod.ts";
import { parseSpec } from "../parse/mod.ts";
import { buildPlan } from "../plan/mod.ts";
import { compactPlan } from "./compact_plan.ts";
import { surfaceReport } from "./surface_report.ts";

/** The GitHub REST spec fixture (`@octokit/openapi`), when it is committed. */
const GITHUB_SPEC = new URL("../../../tests/fixtures/specs/api.github.com.json", import.meta.url);

function githubSpecPresent(): boolean {
  try {
    return Deno.statSync(GITHUB_SPEC).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

const LONG = "Finds orders by status and date. The list is paged: pass the cursor of the previous page. " +
  "See [the guide](https://docs.example.com/orders) for the **full** rules, rate limits and examples.\n\n" +
  "Second paragraph with much more detail that no model needs to choose the tool.";

function verbosePlan(): McpcastPlan {
  return parsePlan({
    api: { name: "shop", base_url: "https://api.example.com" },
    profile: "standard",
    tools: [{
      name: "find_orders",
      description: LONG,
      risk: "read",
      routes: [{
        operation_id: "findOrders",
        method: "POST",
        path: "/orders/search",
        params: {
          status: { location: "body" },
          filter: { location: "body" },
          order_id: { location: "body" },
        },
      }],
      params: {
        status: {
          description: "Order status to match. Orders in any other status are left out of the answer.",
          required: true,
          json_schema: {
            type: "string",
            enum: ["open", "shipped"],
            title: "Status",
            examples: ["open"],
            "x-internal": true,
          },
        },
        filter: {
          description: "",
          json_schema: {
            type: "object",
            description: "Extra filters. Combined with AND.",
            required: ["title"],
            properties: {
              title: {
                type: "string",
                description: "Text the order's title contains. Case is ignored when matching titles.",
                minLength: 1,
              },
              range: {
                type: "object",
                title: "Range",
                properties: { from: { type: "string", format: "date", description: "Deep description." } },
              },
            },
          },
        },
        order_id: { description: "The order ID.", json_schema: { type: "integer", example: 7 } },
      },
      example: { status: "open" },
    }],
  });
}

Deno.test("compact mode keeps types, enums, required and formats and drops schema noise", () => {
  const compact = compactPlan(verbosePlan());
  assert.ok(validatePlan(compact).ok);
  const [tool] = compact.tools;
  assert.deepEqual(tool.params.status.json_schema, { type: "string", enum: ["open", "shipped"] });
  assert.equal(tool.params.status.required, true);
  assert.equal(tool.params.status.description, "Order status to match.");
  assert.deepEqual(tool.params.filter.json_schema, {
    type: "object",
    required: ["title"],
    properties: {
      title: { type: "string", description: "Text the order's title contains.", minLength: 1 },
      range: { type: "object", properties: { from: { type: "string", format: "date" } } },
    },
  });
  assert.equal(tool.params.filter.description, "Extra filters.");
  assert.equal(tool.params.order_id.description, "");
  assert.deepEqual(tool.params.order_id.json_schema, { type: "integer" });
  assert.deepEqual(tool.example, { status: "open" });
  assert.deepEqual(tool.routes, verbosePlan().tools[0].routes);
});

Deno.test("compact mode keeps the first sentences of a tool description within the bound, as plain text", () => {
  const [tool] = compactPlan(verbosePlan()).tools;
  assert.equal(
    tool.description,
    "Finds orders by status and date. The list is paged: pass the cursor of the previous page. " +
      "See the guide for the full rules, rate limits and examples.",
  );
  const one = parsePlan({
    ...verbosePlan(),
    tools: [{ ...verbosePlan().tools[0], description: "x ".repeat(400) }],
  });
  const clipped = compactPlan(one).tools[0].description;
  assert.ok(clipped.length <= 200 && clipped.endsWith("…"));
});

Deno.test("compact mode shrinks the listed tokens of a verbose plan", async () => {
  const before = await surfaceReport(verbosePlan());
  const after = await surfaceReport(compactPlan(verbosePlan()));
  assert.equal(after.tools, before.tools);
  assert.ok(after.tokens < before.tokens * 0.8, `${after.tokens} vs ${before.tokens}`);
});

Deno.test({
  name: "compact mode cuts the GitHub read-only tool list by more than a third",
  ignore: !githubSpecPresent(),
  fn: async () => {
    const plan = buildPlan(await parseSpec(GITHUB_SPEC.pathname), { profile: "read-only" });
    const compact = compactPlan(plan);
    assert.equal(compact.tools.length, plan.tools.length);
    const before = await surfaceReport(plan);
    const after = await surfaceReport(compact);
    assert.ok(before.tokens > 150_000, `${before.tokens}`);
    assert.ok(after.tokens < before.tokens * 0.65, `${after.tokens} vs ${before.tokens}`);
    const required = (p: McpcastPlan) =>
      p.tools.flatMap((tool) =>
        Object.entries(tool.params).filter(([, param]) => param.required).map(([n]) => n)
      );
    assert.deepEqual(required(compact), required(plan));
  },
});

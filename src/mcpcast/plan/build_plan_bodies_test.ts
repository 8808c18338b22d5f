import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import { githubSpecPresent } from "./_test_github_spec.ts";
import { buildPlan } from "./build_plan.ts";
import { parseSpec } from "../parse/parse_spec.ts";
import type { McpcastPlan, ToolPlan } from "./types.ts";
import { planToolInput } from "../runtime/tool_options.ts";
import { Upstream } from "../runtime/upstream.ts";

function fixture(name: string): string {
  return new URL(`../../../tests/fixtures/specs/${name}`, import.meta.url).pathname;
}

function toolFor(plan: McpcastPlan, operationId: string): ToolPlan {
  const tool = plan.tools.find((candidate) =>
    candidate.routes.some((route) => route.operation_id === operationId)
  );
  assert.ok(tool !== undefined, `no tool for ${operationId}`);
  return tool;
}

/** The GitHub operations whose JSON body has properties and a oneOf/anyOf across them. */
const GITHUB_COMPOSED = [
  "campaigns_create_campaign",
  "projects_add_item_for_org",
  "projects_add_item_for_user",
  "secret_scanning_update_org_custom_pattern",
  "checks_update",
  "code_quality_update_setup",
  "code_scanning_update_alert",
  "code_scanning_create_variant_analysis",
  "dependabot_update_alert",
  "repos_create_pages_site",
  "repos_update_information_about_pages_site",
  "secret_scanning_update_alert",
  "secret_scanning_update_repo_custom_pattern",
];

Deno.test({
  name:
    "GitHub bodies with oneOf/anyOf stay one body argument; every tool's example passes its advertised schema",
  ignore: !githubSpecPresent(),
  async fn() {
    const spec = await parseSpec(fixture("api.github.com.json"));
    const plan = buildPlan(spec, { profile: "full", auth: "env-token" });
    // A validator of its own, as strict as a client's (formats left aside: Ajv has none built in).
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    for (const operationId of GITHUB_COMPOSED) {
      const tool = toolFor(plan, operationId);
      const body = tool.params.body;
      assert.ok(body !== undefined, `${operationId}: no body argument`);
      assert.equal(tool.routes[0].params.body.location, "raw_body", operationId);
      const schema = body.json_schema;
      assert.ok("oneOf" in schema || "anyOf" in schema, `${operationId}: the body lost its oneOf/anyOf`);
      assert.ok(tool.example !== null, `${operationId}: no example`);
      const input = planToolInput(tool);
      const check = ajv.compile(input);
      assert.ok(check(tool.example), `${operationId}: ${JSON.stringify(check.errors)}`);
    }
    for (const tool of plan.tools) {
      if (tool.example === null) continue;
      const check = ajv.compile(planToolInput(tool));
      assert.ok(check(tool.example), `${tool.name}: ${JSON.stringify(check.errors)}`);
    }
    const addItem = toolFor(plan, "projects_add_item_for_user");
    assert.deepEqual(addItem.example?.body, { type: "Issue", id: 3 }, "the spec's own first example");
    assert.match(addItem.params.body.description, /^Details of the item to add to the project/);
    const input = planToolInput(addItem);
    assert.match(
      JSON.stringify(input),
      /"oneOf":\[\{"required":\["id"\]\},\{"required":\["owner","repo","number"\]\}\]/,
    );
    assert.equal(
      ajv.compile(input)({
        ...addItem.example,
        body: { type: "Issue", id: 3, owner: "o", repo: "r", number: 1 },
      }),
      false,
    );
  },
});

Deno.test("a required JSON body with no schema is a required free-form body object, and the call sends it", async () => {
  const plan = buildPlan(await parseSpec(fixture("directus_like_oas30.yaml")), {
    profile: "full",
    auth: "env-token",
  });
  const create = toolFor(plan, "create_item");
  assert.deepEqual(create.params.body, {
    description: "The item, with the fields of its collection.",
    json_schema: { type: "object" },
    required: true,
    hidden: false,
  });
  assert.deepEqual(planToolInput(create).required, ["collection", "body"]);
  const update = toolFor(plan, "update_item");
  assert.equal(update.params.body.required, true);
  const seen: Request[] = [];
  const upstream = new Upstream(plan.api, {
    fetch: (request) => {
      seen.push(request);
      return Promise.resolve(Response.json({ ok: true }));
    },
    env: (name) => name === "MCPCAST_UPSTREAM_TOKEN" ? "Bearer t0k" : undefined,
  });
  await upstream.call(create, { collection: "articles", body: { title: "Hello" } });
  assert.equal(seen[0].method, "POST");
  assert.equal(new URL(seen[0].url).pathname, "/items/articles");
  assert.equal(await seen[0].text(), '{"title":"Hello"}');
  assert.equal(seen[0].headers.get("content-type"), "application/json");
});

Deno.test("spec examples that break their own schema reach neither inputSchema.examples nor the tool example", async () => {
  const plan = buildPlan(await parseSpec(fixture("directus_like_oas30.yaml")), {
    profile: "full",
    auth: "env-token",
  });
  const read = planToolInput(toolFor(plan, "read_items")).properties ?? {};
  assert.deepEqual(read.limit, { type: "integer" }, "4.5 is not an integer");
  assert.deepEqual(read.search, { type: "string" }, "null is not a string");
  assert.deepEqual((read.collection as { examples?: unknown }).examples, ["articles"]);
  const update = toolFor(plan, "update_item");
  assert.equal((planToolInput(update).properties?.id as { examples?: unknown }).examples, undefined);
  assert.equal(
    update.example?.id,
    "123e4567-e89b-12d3-a456-426614174000",
    "a well-formed uuid replaces the spec's",
  );
});

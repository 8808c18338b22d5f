import assert from "node:assert/strict";
import { createTestClient } from "../../mcp/mod.ts";
import { estimateTokens } from "../model/mod.ts";
import { type McpcastPlan, parsePlan } from "../plan/mod.ts";
import { buildPlanServer } from "../runtime/mod.ts";
import { petPlan, TOKEN } from "../_test_plans.ts";
import { renderSurfaceReport, tokenText } from "./render_report.ts";
import { SURFACE_TOKENS_TOO_LARGE, surfaceReport } from "./surface_report.ts";

async function listedJson(plan: McpcastPlan): Promise<string> {
  await using client = await createTestClient(buildPlanServer(plan, { env: () => undefined }), {
    token: TOKEN,
  });
  return JSON.stringify({ tools: await client.listTools() });
}

/** A plan of `count` read tools, each with a `size`-character description and one described parameter. */
function widePlan(count: number, size: number, api: Record<string, unknown> = {}): McpcastPlan {
  const prose = "Lists the widgets of one shelf, newest first. ".repeat(Math.ceil(size / 46)).slice(0, size);
  return parsePlan({
    api: { name: "wide", base_url: "https://api.example.com", ...api },
    tools: Array.from({ length: count }, (_, i) => ({
      name: `list_widgets_${i}`,
      description: prose,
      risk: "read",
      routes: [{
        operation_id: `listWidgets${i}`,
        method: "GET",
        path: `/shelves/${i}/widgets`,
        params: { cursor: { location: "query" } },
      }],
      params: { cursor: { description: "Where the page starts, as the previous page's next cursor." } },
    })),
  });
}

Deno.test("the report counts the listed tools and sizes the real tools/list in both modes", async () => {
  const plan = petPlan();
  const report = await surfaceReport(plan);
  const direct = await listedJson(plan);
  const meta = await listedJson(petPlan({ tool_mode: "meta" }));
  assert.equal(report.mode, "direct");
  assert.equal(report.planTools, 5);
  assert.equal(report.tools, 5);
  assert.equal(report.tokens, estimateTokens(direct));
  assert.equal(report.metaTokens, estimateTokens(meta));
  assert.equal(report.servedTokens, report.tokens);
  assert.equal(report.largest.length, 5);
  assert.ok(report.largest.every((tool, i) => i === 0 || report.largest[i - 1].tokens >= tool.tokens));
  assert.ok(report.toolDescriptionShare > 0 && report.toolDescriptionShare < 1);
  assert.equal(report.verdict, "fits");
  assert.deepEqual(report.recommendations, []);
});

Deno.test("an api-key plan is listed as its callers see it, the approval queue's tools included", async () => {
  const report = await surfaceReport(petPlan({ auth: "api-key" }));
  assert.equal(report.planTools, 5);
  assert.equal(report.tools, 7);
});

Deno.test("parameter descriptions are measured inside the input schemas", async () => {
  const described = await surfaceReport(widePlan(3, 100));
  assert.ok(described.parameterDescriptionShare > 0.05);
  const bare = widePlan(3, 100);
  for (const tool of bare.tools) tool.params.cursor.description = "";
  assert.equal((await surfaceReport(bare)).parameterDescriptionShare, 0);
});

Deno.test("a list over the threshold proposes meta-tool mode, and a meta plan is judged by what it serves", async () => {
  const report = await surfaceReport(widePlan(60, 2_500));
  assert.ok(report.tokens > SURFACE_TOKENS_TOO_LARGE);
  assert.equal(report.verdict, "too-large");
  assert.match(report.recommendations[0], /meta-tool mode \(api\.tool_mode: meta\)/);
  assert.ok(report.recommendations.some((line) => /Curate the tools/.test(line)));
  assert.ok(report.metaTokens < 1_000);
  const meta = await surfaceReport(widePlan(60, 2_500, { tool_mode: "meta" }));
  assert.equal(meta.mode, "meta");
  assert.equal(meta.tokens, report.tokens);
  assert.equal(meta.servedTokens, meta.metaTokens);
  assert.equal(meta.verdict, "fits");
  assert.ok(meta.recommendations.every((line) => !/meta-tool mode/.test(line)));
  assert.match(meta.recommendations[0], /60 tools/);
});

Deno.test("the rendered report names the sizes, the largest tools and the advice", async () => {
  const lines = renderSurfaceReport(await surfaceReport(widePlan(60, 2_500)));
  assert.match(
    lines[0],
    /^Tool surface: 60 tools, tools\/list ~\d+(\.\d)?k tokens \(meta-tool mode: ~\d+\)$/,
  );
  assert.match(lines[2], /^ {2}largest: list_widgets_\d+ ~/);
  assert.equal(lines[3], "  too large for a model's context:");
  assert.match(lines[4], /^ {2}- Serve in meta-tool mode/);
  assert.deepEqual([tokenText(850), tokenText(44_120), tokenText(205_400), tokenText(3_000)], [
    "~850",
    "~44.1k",
    "~205k",
    "~3k",
  ]);
});

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { mcpcast, type McpcastPlan } from "../../mcpcast/mod.ts";
import {
  DROPPED_LISTED,
  droppedLines,
  filesLine,
  plainHttpHosts,
  reviewLines,
  summaryJson,
  summaryLines,
} from "./report.ts";

const PETSTORE = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url),
);
const OUTCOME = {
  shownDir: "./petstore-mcp",
  outDir: "/tmp/petstore-mcp",
  files: ["a.ts"],
  kept: [],
  removed: [],
  planOnly: false,
};

Deno.test("review table shows tool, risk, gated and route, then what is not exposed", async () => {
  const plan = await mcpcast(PETSTORE, { profile: "standard" });
  const lines = reviewLines(plan);
  assert.match(lines[0], /^Tool\s+Risk\s+Gated\s+Route\s+Description$/);
  assert.ok(lines.some((line) => /^add_pet\s+write\s+yes\s+POST \/pet\s/.test(line)), lines.join("\n"));
  assert.ok(lines.some((line) => /^find_pets_by_status\s+read\s+GET \/pet\/findByStatus/.test(line)));
  assert.ok(lines.includes(`Not exposed (${plan.dropped.length}):`));
  assert.ok(lines.includes("  findPetsByTags: deprecated in spec"));
});

Deno.test("summary counts kept, gated and dropped tools, lists each drop with its reason and the files", async () => {
  const plan = await mcpcast(PETSTORE, { profile: "standard" });
  const files = ["mcpcast.plan.yaml", "main.ts", "src/config.ts", "src/tools/pet.ts", "src/tools/store.ts"];
  const lines = summaryLines(plan, {
    ...OUTCOME,
    files,
    kept: [".gitignore"],
    removed: ["src/tools/old.ts"],
  });
  assert.equal(lines[0], "mcpcast: petstore → ./petstore-mcp");
  assert.match(lines[1], /^ {2}16 tools kept \(9 approval-gated\), 4 operations dropped; profile standard/);
  for (const op of plan.dropped) assert.ok(lines.includes(`    ${op.operation_id}: ${op.reason}`));
  assert.ok(
    lines.includes("  files written (5): mcpcast.plan.yaml, main.ts, src/ (1 file), src/tools/ (2 files)"),
  );
  assert.ok(lines.some((line) => /warning: petstore\.swagger\.io is plain http/.test(line)));
  assert.ok(lines.includes("  kept as they were: .gitignore"));
  assert.ok(lines.includes("  removed (no longer in the plan): src/tools/old.ts"));
});

Deno.test("many dropped operations are grouped by reason, most common first", () => {
  const dropped = [
    ...Array.from(
      { length: 9 },
      (_, i) => ({ operation_id: `del${i}`, reason: "destructive operation excluded" }),
    ),
    ...Array.from({ length: 5 }, (_, i) => ({ operation_id: `old${i}`, reason: "deprecated in spec" })),
  ];
  assert.ok(dropped.length > DROPPED_LISTED);
  assert.deepEqual(droppedLines(dropped), [
    "  destructive operation excluded (9): del0, del1, del2, del3, del4, del5, … (+3 more)",
    "  deprecated in spec (5): old0, old1, old2, old3, old4",
  ]);
});

Deno.test("files line lists top-level files and folders with counts", () => {
  assert.equal(
    filesLine(["README.md", "tests/a_test.ts", "src/b.ts", "src/c.ts"]),
    "README.md, src/ (2 files), tests/ (1 file)",
  );
});

Deno.test("plain http is flagged only for non-loopback hosts", async () => {
  const plan: McpcastPlan = await mcpcast(PETSTORE, { baseUrl: "http://127.0.0.1:8080/v2" });
  assert.deepEqual(plainHttpHosts(plan), []);
  assert.deepEqual(plainHttpHosts({ ...plan, api: { ...plan.api, base_url: "https://x.example" } }), []);
  assert.deepEqual(plainHttpHosts({ ...plan, api: { ...plan.api, base_url: "http://x.example:81" } }), [
    "x.example:81",
  ]);
});

Deno.test("the JSON summary has counts, tools with routes, dropped operations and files", async () => {
  const plan = await mcpcast(PETSTORE, { profile: "full", auth: "env-token" });
  const json = summaryJson(plan, OUTCOME);
  assert.deepEqual(Object.keys(json), [
    "api",
    "out_dir",
    "plan_only",
    "profile",
    "auth",
    "approval",
    "base_url",
    "counts",
    "tools",
    "dropped",
    "files",
    "kept",
    "removed",
  ]);
  assert.deepEqual(json.counts, { kept: plan.tools.length, gated: 12, dropped: plan.dropped.length });
  assert.deepEqual((json.tools as unknown[])[0], {
    name: "add_pet",
    risk: "write",
    requires_approval: true,
    routes: ["POST /pet"],
  });
  assert.equal(json.approval, "elicitation");
});

/**
 * The generated servers of the spec corpus against Stoplight Prism: for each spec, Prism mocks it with
 * `--errors` (every request validated against the spec: parameters, body, content type, security),
 * the plan's server (profile full, every gated call approved) is driven by the MCP SDK's client, and
 * every tool is called with its example. Every request Prism rejects must be a known rejection in
 * {@linkcode KNOWN_REJECTIONS} (with its cause); a known rejection that no longer happens fails too,
 * so the list only shrinks. Skipped when Prism is not installed (`.ci/run` installs it and sets
 * `MCPCAST_PRISM_REQUIRED=1`, which turns the skip into a failure).
 *
 * @module
 */

import assert from "node:assert/strict";
import { createTestClient } from "../src/mcp/mod.ts";
import { mcpcast, type McpcastPlan } from "../src/mcpcast/mod.ts";
import { buildPlanServer } from "../src/mcpcast/runtime/mod.ts";
import { credentialVariables } from "../src/mcpcast/runtime/internal.ts";
import { prismBinary, PrismMock, type PrismRejection, prismRejection } from "./_prism.ts";
import { KNOWN_REJECTIONS } from "./_prism_known.ts";

const SPECS = "tests/fixtures/specs/";
const PRISM = prismBinary();
const REQUIRED = Deno.env.get("MCPCAST_PRISM_REQUIRED") === "1";
const GITHUB = "api.github.com.json";
const GITHUB_STRIDE = 8;

/** The corpus specs served (the webhooks-only spec has no operation). */
const CORPUS: readonly string[] = [
  "petstore_swagger2.yaml",
  "petstore_oas30.json",
  "train_travel_oas31.yaml",
  "schema_circular_oas30.yaml",
  "circular_paths_oas30.json",
  "security_oas30.json",
  "server_variables_oas30.json",
  "api.github.com.json",
];

/** What happened to one tool call. */
interface Outcome {
  /** `spec operation_id` of the route called (the tool name when nothing was sent). */
  key: string;
  /** The rejection, or undefined when Prism accepted every request the call sent. */
  rejection?: PrismRejection | { type: "NOT_SENT"; reason: string };
}

/** Calls every tool of `plan` with its example against Prism at `upstream`; one outcome per tool. */
async function callEveryTool(spec: string, plan: McpcastPlan): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let sent: { operation: string; rejection?: PrismRejection }[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const method = request.method;
    const match = plan.tools.flatMap((tool) => tool.routes).find((route) =>
      route.method === method && pathMatches(route.path, new URL(request.url).pathname)
    );
    const entry: { operation: string; rejection?: PrismRejection } = {
      operation: match?.operation_id ?? `${method} ${new URL(request.url).pathname}`,
    };
    sent.push(entry);
    try {
      // The request is what is judged: a redirect Prism answers from the spec is not followed.
      const response = await globalThis.fetch(request, { redirect: "manual" });
      entry.rejection = await prismRejection(response);
      return response;
    } catch (error) {
      entry.rejection = { status: 0, type: "NO_ANSWER", reason: String(error).slice(0, 300) };
      throw error;
    }
  };
  // A made-up credential in every variable the plan reads, shaped as its generated README says.
  const env: Record<string, string> = { MCPCAST_ALLOW_INSECURE_HTTP: "1" };
  for (const variable of credentialVariables(plan.api)) {
    env[variable.name] = variable.example.replaceAll(/[<>]/g, "").replaceAll(" ", "-");
  }
  const server = buildPlanServer(plan, {
    fetch,
    approver: () => true,
    env: (name) => env[name],
  });
  await using client = await createTestClient(server);
  for (const tool of sample(spec, plan)) {
    sent = [];
    const result = await client.callTool(tool.name, tool.example ?? {});
    if (sent.length === 0) {
      const [block] = result.content as Array<{ type: string; text?: string }>;
      outcomes.push({
        key: `${spec} ${tool.routes[0]?.operation_id ?? tool.name}`,
        rejection: { type: "NOT_SENT", reason: (block?.text ?? "").slice(0, 300) },
      });
      continue;
    }
    for (const { operation, rejection } of sent) outcomes.push({ key: `${spec} ${operation}`, rejection });
  }
  return outcomes;
}

/**
 * The tools called: all of them, except on the GitHub spec (1,100+ tools, about 0.2 s per request on
 * Prism with that spec), where every 8th tool in plan order and every tool with a known rejection are
 * called, unless `MCPCAST_PRISM_ALL=1` (about 6 minutes).
 */
function sample(spec: string, plan: McpcastPlan): McpcastPlan["tools"] {
  if (spec !== GITHUB || Deno.env.get("MCPCAST_PRISM_ALL") === "1") return plan.tools;
  return plan.tools.filter((tool, index) =>
    index % GITHUB_STRIDE === 0 ||
    tool.routes.some((route) => KNOWN_REJECTIONS[`${spec} ${route.operation_id}`] !== undefined)
  );
}

/** Whether `pathname` fits the template `/pets/{petId}` (one segment per variable). */
function pathMatches(template: string, pathname: string): boolean {
  const pattern = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${pattern.join("[^/]+")}$`).test(pathname);
}

for (const spec of CORPUS) {
  Deno.test({
    name: `prism: ${spec}: every tool's example request is accepted or a known rejection`,
    ignore: PRISM === undefined && !REQUIRED,
    fn: async () => {
      assert.ok(PRISM, "prism is not installed (.ci/run installs it into .tools/prism)");
      await using prism = await PrismMock.start(PRISM, `${SPECS}${spec}`);
      const plan = await mcpcast(`${SPECS}${spec}`, {
        profile: "full",
        auth: "env-token",
        baseUrl: prism.url,
      });
      const outcomes = await callEveryTool(spec, plan);
      const problems: string[] = [];
      const rejected = new Set<string>();
      for (const { key, rejection } of outcomes) {
        if (rejection === undefined) continue;
        rejected.add(key);
        if (KNOWN_REJECTIONS[key] === undefined) {
          problems.push(`${key}: rejected (${rejection.type}) ${rejection.reason}`);
        }
      }
      const called = new Set(outcomes.map((outcome) => outcome.key));
      for (const [key, known] of Object.entries(KNOWN_REJECTIONS)) {
        if (!key.startsWith(`${spec} `)) continue;
        if (!called.has(key)) problems.push(`${key}: known rejection of an operation no tool called`);
        if (!rejected.has(key)) {
          problems.push(`${key}: now accepted, remove it from KNOWN_REJECTIONS (${known.cause})`);
        }
      }
      assert.deepEqual(problems, [], `${outcomes.length} requests; ${problems.length} problems`);
    },
  });
}

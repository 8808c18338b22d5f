/**
 * Runs the MCP conformance suite's client scenarios (`@modelcontextprotocol/conformance`, client mode)
 * against the agent's MCP client (`McpConnections`, the one `agentry` runs use), at 2026-07-28
 * (`NAME@REVISION` for another revision), and prints the checks each scenario passed and failed. Exits
 * 1 when a check failed that {@linkcode EXPECTED_FAILURES} does not name (or one it names passed: the
 * list is then out of date).
 *
 * The suite starts its own server per scenario and runs this same script with `--client <url>` as the
 * client: it connects the URL as server `conformance` (auto negotiation: `server/discover`, else
 * `initialize`), makes the tool calls the scenario's context lists (`MCP_CONFORMANCE_CONTEXT`), or else
 * calls every listed tool with arguments filled from its input schema, and closes.
 *
 * Usage: deno run -A scripts/conformance_client.ts [SCENARIO...]   (or: deno task conformance:client)
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { McpConnections } from "../src/agent/mcp/mod.ts";
import { Logger } from "../src/log.ts";

/** The suite release the client is checked against. */
const SUITE = "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12";
/**
 * The client scenarios run, at 2026-07-28 unless `@<revision>` says otherwise (the auth scenarios need
 * an OAuth client the agent does not have).
 */
export const SCENARIOS = [
  "tools_call@2025-11-25",
  "tools_call",
  "request-metadata",
  "sep-2322-client-request-state",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-ref-no-deref",
];
/**
 * Checks the agent fails on purpose. `sep-2322-client-request-state` answers every tool call with an
 * `input_required` elicitation and checks the retry; an agent has no human, declares no elicitation
 * capability and so never retries (the model reads that the server asked for input it cannot give).
 */
export const EXPECTED_FAILURES: Record<string, string[]> = {
  "sep-2322-client-request-state": [
    "sep-2322-client-request-state-echoed",
    "sep-2322-client-jsonrpc-id-different",
    "sep-2322-client-no-state-omitted",
  ],
};
const SPEC_VERSION = "2026-07-28";
const SCENARIO_TIMEOUT_MS = 60_000;
const SERVER = "conformance";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");

type ToolCall = { name: string; arguments: Record<string, unknown> };

/** A value of the JSON Schema `type` of `schema`, for a required argument the scenario did not give. */
function sample(schema: Record<string, unknown>): unknown {
  switch (schema.type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "test";
  }
}

function filled(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const properties = (inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (inputSchema.required ?? []) as string[];
  return Object.fromEntries(required.map((name) => [name, sample(properties[name] ?? {})]));
}

/** The client side: what the suite runs with the scenario's server URL. */
async function client(url: string): Promise<number> {
  const context = JSON.parse(Deno.env.get("MCP_CONFORMANCE_CONTEXT") ?? "{}") as { toolCalls?: ToolCall[] };
  const logger = new Logger("conformance.client", { level: "debug" });
  const mcp = await McpConnections.connect({ [SERVER]: { url } }, {
    logger,
    connectTimeoutMs: 10_000,
    callTimeoutMs: 10_000,
    clientInfo: { name: "agentry-conformance-client", version: "1" },
  });
  try {
    const tools = mcp.tools();
    const calls: ToolCall[] = context.toolCalls ??
      tools.map((tool) => ({ name: tool.tool, arguments: filled(tool.inputSchema) }));
    for (const call of calls) {
      const offered = tools.find((tool) => tool.tool === call.name);
      if (offered === undefined) {
        console.error(`conformance client: no tool ${call.name} was listed`);
        continue;
      }
      const outcome = await mcp.call(offered.name, call.arguments);
      console.error(
        `conformance client: ${call.name} -> ${outcome.isError ? "error: " : ""}${outcome.content}`,
      );
    }
    console.error(`conformance client: spoke ${mcp.status()[SERVER].protocol_version}`);
  } finally {
    await mcp.close();
  }
  return 0;
}

type Check = { id: string; status: string; errorMessage?: string };

async function runScenario(entry: string, scratch: string): Promise<Check[]> {
  const [scenario, specVersion = SPEC_VERSION] = entry.split("@");
  const out = join(scratch, entry);
  const command = `${Deno.execPath()} run --quiet --config=${join(root, "deno.json")} -A ${
    join(root, "scripts", "conformance_client.ts")
  } --client`;
  const suite = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      "--no-lock",
      "-A",
      SUITE,
      "client",
      "--command",
      command,
      "--scenario",
      scenario,
      "--spec-version",
      specVersion,
      "-o",
      out,
    ],
    cwd: scratch,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => suite.kill("SIGKILL"), SCENARIO_TIMEOUT_MS);
  const { stderr } = await suite.output();
  clearTimeout(timer);
  const checks: Check[] = [];
  try {
    for await (const entry of Deno.readDir(out)) {
      if (!entry.isDirectory) continue;
      checks.push(...JSON.parse(await Deno.readTextFile(join(out, entry.name, "checks.json"))) as Check[]);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (checks.length === 0) console.error(new TextDecoder().decode(stderr).slice(-4_000));
  return checks;
}

/** Prints a scenario's counts and failed checks; 1 when a failure was not expected (or an expected one passed). */
function report(scenario: string, checks: Check[]): number {
  const expected = new Set(EXPECTED_FAILURES[scenario] ?? []);
  const bad = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
  const passed = checks.filter((check) => check.status === "SUCCESS");
  const surprises = bad.filter((check) => !expected.has(check.id)).length +
    passed.filter((check) => expected.has(check.id)).length;
  const note = checks.length === 0
    ? " (no checks)"
    : bad.length > 0 && surprises === 0
    ? " (as expected)"
    : "";
  console.log(`${scenario}: ${passed.length} passed, ${bad.length} failed${note}`);
  for (const check of bad) {
    console.log(
      `  ${expected.has(check.id) ? "expected" : check.status} ${check.id} ${check.errorMessage ?? ""}`,
    );
  }
  return surprises > 0 || checks.length === 0 ? 1 : 0;
}

async function main(scenarios: string[]): Promise<number> {
  const scratch = await Deno.makeTempDir({ prefix: "agentry-conformance-client-" });
  let failed = 0;
  try {
    for (const scenario of scenarios) {
      const checks = await runScenario(scenario, scratch);
      failed += report(scenario, checks);
    }
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--client");
  Deno.exit(
    at >= 0 ? await client(Deno.args.at(-1)!) : await main(Deno.args.length > 0 ? Deno.args : SCENARIOS),
  );
}

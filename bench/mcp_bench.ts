/**
 * MCP benchmark: `tools/call` throughput and latency over streamable HTTP for one simple tool (`echo`,
 * zod input `{ text: string }`), servers side by side in one run, reported as ratios to the bare SDK.
 * On 2025-11-25 sessions (as before issue 16):
 *
 * - (a) `sdk`: the bare SDK (`McpServer.registerTool` + `WebStandardStreamableHTTPServerTransport` in
 *   `Deno.serve`, stateful, a session map), set up like our handler's transports;
 * - (b) `ours`: `createToolServer` + `toFetchHandler(server, { transport: "http" })`, no middleware;
 * - (c) `ours+mw`: (b) with audit (signed chain appended to a temp file, `hmacSecret` given), circuit
 *   breaker, API-key auth (`auth: true`, the load sends `x-api-key`), a never-refusing rate limit and
 *   timeout, outermost first;
 * - (d) `fastmcp`: the same tool on FastMCP's `httpStream` transport, run under Deno, with its defaults
 *   (which include an in-memory event store, so each SSE answer starts with a priming event, and a 5 s
 *   ping per session).
 *
 * On the 2026-07-28 revision (stateless: no `initialize`, no session; `_mcp_modern_client.ts`):
 *
 * - (a2) `sdk2`: the bare SDK v2 (`McpServer` per request behind `createMcpHandler(factory, { legacy:
 *   "reject" })` in `Deno.serve`, `_mcp_sdk2.ts`);
 * - (b2) and (c2): the servers of (b) and (c), each in its own process, sent modern requests (our
 *   handler routes each request by era: these take the modern leg, SDK v2 per request).
 *
 * Every server is its own `deno run` subprocess (`mcp_server.ts`, `fastmcp/server.ts` with its own config); the load comes
 * from this process through the raw keep-alive client of `_load.ts`. Sessions: before measuring, each
 * connection gets its own session (`initialize` + `notifications/initialized` over `fetch`), kept for the
 * whole run, as an MCP client holds one session on one connection; then each connection sends `tools/call`
 * POSTs one at a time (`accept: application/json, text/event-stream`, `mcp-session-id`,
 * `mcp-protocol-version`) and reads each whole SSE answer; an answer counts only when it is 200 and holds
 * the echoed text. The same is done for all four servers (and `x-api-key` is sent to all four). Modern
 * servers are first probed with `server/discover` (it must list 2026-07-28); then each connection sends
 * `tools/call` POSTs with the `_meta` envelope and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
 * headers (and `x-api-key`), no session id; answers are JSON unless the server streams.
 *
 * Correctness first: each server's first `tools/call` must answer the echoed text, or the run stops.
 * Rounds run the servers in turn, forward then backward (a b c d a2 b2 c2, then backwards, ...), after
 * the same warm-up; figures are medians over rounds, ratios the medians of per-round ratios (drift cancels
 * within a round). Targets shown: b/a >= 0.9 and c/a >= 0.8 in throughput (issue 18), and ours (b and c)
 * ahead of (d); the modern side's ratios b2/a2, c2/a2 (against the bare SDK v2) and b2/a, c2/a (against
 * today's bare SDK on sessions) are shown without targets.
 *
 * Figures are printed and written to `bench/results/mcp.json`. `--diagnose` adds five more servers, (b)
 * with parts of (c)'s middleware (without audit; audit alone signed to the file, signed in memory,
 * unsigned to the file; API-key auth alone), to show what each part costs. `--cpu-prof DIR` also writes
 * one V8 CPU profile per server (`deno run --cpu-prof`, main thread only), covering warm-up and rounds.
 *
 * `--revision 2025|2026|both` (default both) picks the side. `--only c,audit` runs the named servers
 * (main or diagnostic keys) and their side's bare SDK ((a) for 2025 keys, (a2) for 2026 keys), for
 * quicker comparisons.
 * `--before DIR` adds `c0`: (c) served by the `bench/mcp_server.ts` of another checkout (e.g. an older
 * commit unpacked with `git archive`), so a change is measured before and after in one run.
 *
 * Usage: `deno task bench:mcp [--rounds 5] [--seconds 3] [--connections 10] [--revision 2025|2026|both]
 * [--diagnose] [--only KEYS] [--before DIR] [--cpu-prof DIR] [--pin]` (`--pin`: see `_server_process.ts`)
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadTarget } from "./_load.ts";
import { callTarget, checkedCall, type McpClientOptions, openSession } from "./_mcp_client.ts";
import { checkedModernCall, discover, modernCallTarget } from "./_mcp_modern_client.ts";
import { type McpOutcome, type McpRunFigures, report } from "./_mcp_output.ts";
import { BASELINE, chooseVariants, parseRevision, type Variant } from "./_mcp_variants.ts";
import { measureLoad } from "./_measure.ts";
import { fmt } from "./_report.ts";
import { machineBusySeconds, makeTempDir, ownCpuSeconds, ServerProcess } from "./_server_process.ts";
import { flag } from "./_serve_until_told.ts";
import { API_KEY, MCP_PATH, TOOL_NAME } from "./mcp_server.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER_SCRIPT = join(HERE, "mcp_server.ts");
const FASTMCP_SCRIPT = join(HERE, "fastmcp", "server.ts");
const FASTMCP_CONFIG = join(HERE, "fastmcp", "deno.json");
const RESULTS = join(HERE, "results", "mcp.json");
const ROUNDS = positive("rounds", 5);
const ROUND_MS = positive("seconds", 3) * 1000;
const CONNECTIONS = Math.ceil(positive("connections", 10));
const WARMUP_MS = 2000;
const ECHO = "agentry-mcp-bench-echo-0123456789";
const CALL = { tool: TOOL_NAME, args: { text: ECHO }, expected: ECHO };
const REVISION = parseRevision(flag("revision"));

function positive(name: string, fallback: number): number {
  const value = Number(flag(name) ?? fallback);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number`);
  return value;
}

interface Live {
  key: string;
  baseline: string;
  server: ServerProcess;
  target: LoadTarget;
}

async function start(v: Variant, work: string, profileDir: string | undefined): Promise<ServerProcess> {
  const denoArgs = profileDir
    ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${v.key}.cpuprofile`]
    : [];
  if (v.args === undefined) {
    return await ServerProcess.spawn(FASTMCP_SCRIPT, [], {
      label: v.label,
      denoArgs: [...denoArgs, `--config=${FASTMCP_CONFIG}`],
    });
  }
  const args = [...v.args, "--audit-log", join(work, `${v.key}.audit.jsonl`)];
  return await ServerProcess.spawn(v.script ?? SERVER_SCRIPT, args, { label: v.label, denoArgs });
}

/** The load of `v`, once its first call echoed: sessions (2025) or a `server/discover` probe (2026). */
async function prepare(v: Variant, server: ServerProcess): Promise<Live & { sample: unknown }> {
  const client: McpClientOptions = { baseUrl: server.url, path: MCP_PATH, headers: { "x-api-key": API_KEY } };
  const failed = (error: unknown): never => {
    throw new Error(`${v.label}: ${error instanceof Error ? error.message : error}`);
  };
  const live = { key: v.key, baseline: BASELINE[v.revision], server };
  if (v.revision === "2026") {
    await discover(client).catch(failed);
    const sample = await checkedModernCall(client, CALL).catch(failed);
    return { ...live, target: modernCallTarget(client, CALL), sample };
  }
  const sessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => openSession(client)));
  const sample = await checkedCall(client, sessions[0], CALL).catch(failed);
  return { ...live, target: callTarget(client, sessions, CALL), sample };
}

/** One run, plus the CPU that processes other than this one and the server used meanwhile (noise). */
async function measure(live: Live, ms: number): Promise<McpRunFigures> {
  const [machine0, server0, own0] = [
    await machineBusySeconds(),
    await live.server.cpuSeconds(),
    await ownCpuSeconds(),
  ];
  const started = performance.now();
  const figures = await measureLoad(live.server, live.target, {
    generator: "raw",
    connections: CONNECTIONS,
    durationMs: ms,
  });
  const seconds = (performance.now() - started) / 1000;
  const [machine1, server1, own1] = [
    await machineBusySeconds(),
    await live.server.cpuSeconds(),
    await ownCpuSeconds(),
  ];
  const other = machine1 - machine0 - (server1 - server0) - (own1 - own0);
  return { ...figures, otherCpuShare: Math.max(0, other) / seconds };
}

async function countLines(path: string): Promise<number> {
  const bytes = await Deno.readFile(path).catch(() => new Uint8Array());
  let lines = 0;
  for (const byte of bytes) if (byte === 10) lines++;
  return lines;
}

async function main(): Promise<void> {
  const began = performance.now();
  await using temp = await makeTempDir("agentry-mcp-bench-");
  const profileDir = flag("cpu-prof");
  const variants = chooseVariants({
    revision: REVISION,
    diagnose: Deno.args.includes("--diagnose"),
    only: flag("only")?.split(","),
    before: flag("before"),
  });
  const servers: ServerProcess[] = [];
  try {
    const lives: Live[] = [];
    const samples: Record<string, unknown> = {};
    for (const v of variants) {
      const server = await start(v, temp.path, profileDir);
      servers.push(server);
      const live = await prepare(v, server);
      samples[v.key] = live.sample;
      lives.push(live);
      const how = v.revision === "2026" ? "2026-07-28, no sessions" : `${CONNECTIONS} sessions`;
      console.error(`${v.label}: ${server.url} (pid ${server.pid}), ${how}, echo checked`);
    }
    for (const live of lives) await measure(live, WARMUP_MS);
    const rounds: Array<Record<string, McpRunFigures>> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? lives : [...lives].reverse();
      const round: Record<string, McpRunFigures> = {};
      for (const live of order) round[live.key] = await measure(live, ROUND_MS);
      rounds.push(round);
      const show = ({ key, baseline }: Live) =>
        `${key} ${fmt(round[key].rps)}${
          key === baseline ? "" : ` (${fmt(round[key].rps / round[baseline].rps, 2)})`
        }`;
      console.error(`  round ${i + 1}/${ROUNDS}: ${lives.map(show).join(" | ")} req/s`);
    }
    const memory: McpOutcome["memory"] = {};
    for (const live of lives) memory[live.key] = await live.server.memory();
    for (const server of servers.splice(0)) await server.stop();
    const auditEntries = {
      c: await countLines(join(temp.path, "c.audit.jsonl")),
      c2: await countLines(join(temp.path, "c2.audit.jsonl")),
    };
    const seconds = (performance.now() - began) / 1000;
    const info = variants.map(({ key, label, about }) => ({ key, label, about }));
    report({ variants: info, rounds, samples, memory, auditEntries, seconds }, {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      roundMs: ROUND_MS,
      warmupMs: WARMUP_MS,
      resultsPath: RESULTS,
      profileDir,
    });
  } finally {
    for (const server of servers) await server.stop();
  }
}

if (import.meta.main) await main();

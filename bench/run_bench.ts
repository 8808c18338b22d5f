/**
 * Agent-run benchmark (issue 11): runs per second through trigger -> prompt -> model -> reply, with and
 * without one MCP tool step, at concurrency 1 and 8, side by side with a bare loop of raw `fetch` calls
 * doing the same HTTP steps. Nothing passes or fails: figures and ratios are printed.
 *
 * - The model server (answering at once) and the MCP server run together in their own subprocess
 *   (`bench/run_model_server.ts`); this process only does A's or B's client side, so its CPU per run is
 *   the figure that matters.
 * - A (`_run_agent_side.ts`): an `AgentRuntime` in this process with the triggers part and the agent
 *   runner, `model: "openai-compatible:bench"`, `stream: false`, no journal, no conversation history; a
 *   run is fired by emitting an event on the in-process `EventBus` that the process's `event` trigger
 *   listens to (the webhook's HTTP path has its own benchmark) and ends when the runner's reply is back.
 *   Extra variants at concurrency 8 without tools: `stream: true`, a `full` journal in memory, and the
 *   default conversation history (the last 100 messages in every prompt).
 * - B (`_run_bare_side.ts`): the same requests with raw `fetch`; its chat bodies are built from A's
 *   captured first-turn body, so both send the same prompt and tool list.
 * - Closed loops (`concurrency` of them) for each window; rounds alternate the order (ABBA); figures are
 *   medians over rounds, ratios and A-B differences medians of per-round figures.
 *
 * Figures are written to `bench/results/runs.json`.
 *
 * A variant at concurrency 8 with a tool step and `run_timeout: 0` shows what the run timeout's signal
 * costs once the MCP SDK keeps a listener on it (diagnostic).
 *
 * Usage: `deno run --allow-all bench/run_bench.ts [--rounds 4] [--seconds 1.5] [--cases plain-c8,tool-c8]
 * [--sides a|b]` (`--sides a` measures A only and prints nothing: for `deno run --cpu-prof`).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compare, fmt, type RunFigures } from "./_report.ts";
import { makeTempDir, ServerProcess } from "./_server_process.ts";
import { flag } from "./_serve_until_told.ts";
import { type AgentSide, type AgentVariant, startAgentSide } from "./_run_agent_side.ts";
import { BareSide, type ChatBody } from "./_run_bare_side.ts";
import { type FireRun, measureRuns } from "./_run_measure.ts";
import { type CaseResult, cpuAboveBare, report } from "./_run_output.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER_SCRIPT = join(HERE, "run_model_server.ts");
const RESULTS = join(HERE, "results", "runs.json");
const ROUNDS = Number(flag("rounds") ?? 4);
const ROUND_MS = Number(flag("seconds") ?? 1.5) * 1000;
const WARMUP_MS = 1000;
const TARGETS = { cpuAboveBareMs: 0.5, minRunsPerSecC8: 2000 };

interface CaseSpec {
  key: string;
  label: string;
  concurrency: number;
  tool: boolean;
  variants: Array<AgentVariant & { note: string }>;
}

const CASES: CaseSpec[] = [
  {
    key: "plain-c1",
    label: "no tools, c1",
    concurrency: 1,
    tool: false,
    variants: [{ name: "plain-c1", concurrency: 1, tool: false, note: "" }],
  },
  {
    key: "plain-c8",
    label: "no tools, c8",
    concurrency: 8,
    tool: false,
    variants: [
      { name: "plain-c8", concurrency: 8, tool: false, note: "" },
      { name: "stream-c8", concurrency: 8, tool: false, note: "stream: true", extra: { stream: true } },
      {
        name: "journal-c8",
        concurrency: 8,
        tool: false,
        note: "full journal in memory",
        extra: { journal: { level: "full", backend: "memory" } },
      },
      {
        name: "history-c8",
        concurrency: 8,
        tool: false,
        note: "conversation history on",
        extra: { context: { conversation_history: true } },
      },
    ],
  },
  {
    key: "tool-c1",
    label: "1 tool step, c1",
    concurrency: 1,
    tool: true,
    variants: [{ name: "tool-c1", concurrency: 1, tool: true, note: "" }],
  },
  {
    key: "tool-c8",
    label: "1 tool step, c8",
    concurrency: 8,
    tool: true,
    variants: [
      { name: "tool-c8", concurrency: 8, tool: true, note: "" },
      {
        name: "tool-c8-no-timeout",
        concurrency: 8,
        tool: true,
        note: "run_timeout: 0 (diagnostic)",
        extra: { run_timeout: 0 },
      },
    ],
  },
];

/** A port that was free a moment ago (bound on 127.0.0.1 port 0 and closed). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

/** One run of each kind through a runtime whose model fetch keeps the chat bodies: B's first-turn bodies. */
async function captureBodies(
  options: { modelUrl: string; mcpUrl: string; dataDir: string },
): Promise<{ plain: ChatBody; tool: ChatBody }> {
  const bodies: ChatBody[] = [];
  const capturing: typeof fetch = (input, init) => {
    if (typeof init?.body === "string") bodies.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  const plain = { name: "capture-plain", concurrency: 1, tool: false };
  const tool = { name: "capture-tool", concurrency: 1, tool: true };
  await using side = await startAgentSide({ ...options, variants: [plain, tool], fetch: capturing });
  if (!(await side.fire(plain)).ok) throw new Error("the capture run without tools failed");
  const plainBody = bodies[0];
  if (!(await side.fire(tool)).ok) throw new Error("the capture run with a tool step failed");
  const toolBody = bodies[1];
  if (bodies.length !== 3) throw new Error(`expected 3 model requests, saw ${bodies.length}`);
  return { plain: plainBody, tool: toolBody };
}

interface Slot {
  caseKey: string;
  variant: string | "bare";
  fire: FireRun;
  concurrency: number;
}

function slotsOf(
  cases: readonly CaseSpec[],
  agent: AgentSide,
  bare: BareSide,
  bodies: { plain: ChatBody; tool: ChatBody },
) {
  const slots: Slot[] = [];
  for (const c of cases) {
    for (const v of c.variants) {
      slots.push({ caseKey: c.key, variant: v.name, fire: () => agent.fire(v), concurrency: c.concurrency });
    }
    const fire = c.tool ? () => bare.tool(bodies.tool) : () => bare.plain(bodies.plain);
    slots.push({ caseKey: c.key, variant: "bare", fire, concurrency: c.concurrency });
  }
  return slots;
}

async function main(): Promise<void> {
  const began = performance.now();
  const only = flag("cases")?.split(",");
  const cases = only ? CASES.filter((c) => only.includes(c.key)) : CASES;
  if (cases.length === 0) throw new Error(`--cases: none of ${CASES.map((c) => c.key).join(", ")}`);
  await using temp = await makeTempDir("agentry-run-bench-");
  const mcpPort = freePort();
  await using server = await ServerProcess.spawn(SERVER_SCRIPT, ["--mcp-port", `${mcpPort}`], {
    label: "model server",
  });
  const mcpBase = `http://127.0.0.1:${mcpPort}`;
  const where = { modelUrl: server.url, mcpUrl: `${mcpBase}/mcp`, dataDir: join(temp.path, "capture") };
  const bodies = await captureBodies(where);
  const variants = cases.flatMap((c) => c.variants);
  await using agent = await startAgentSide({ ...where, dataDir: join(temp.path, "runs"), variants });
  const bare = await BareSide.open(server.url, mcpBase);
  const sides = flag("sides") ?? "ab";
  const slots = slotsOf(cases, agent, bare, bodies).filter((slot) =>
    sides.includes(slot.variant === "bare" ? "b" : "a")
  );
  const measure = (slot: Slot, ms: number) =>
    measureRuns(slot.fire, { concurrency: slot.concurrency, ms, server });
  for (const slot of slots) await measure(slot, WARMUP_MS);
  const got = new Map<Slot, RunFigures[]>(slots.map((slot) => [slot, []]));
  for (let i = 0; i < ROUNDS; i++) {
    const line: string[] = [];
    for (const slot of i % 2 === 0 ? slots : [...slots].reverse()) {
      const figures = await measure(slot, ROUND_MS);
      got.get(slot)!.push(figures);
      line.push(`${slot.variant === "bare" ? `${slot.caseKey} B` : slot.variant} ${fmt(figures.rps)}/s`);
    }
    console.error(`  round ${i + 1}/${ROUNDS}: ${line.join(" | ")}`);
  }
  if (sides !== "ab") return; // a profiling run: nothing to compare
  const results: CaseResult[] = cases.map((c) => {
    const bareRounds = got.get(slots.find((s) => s.caseKey === c.key && s.variant === "bare")!)!;
    return {
      key: c.key,
      label: c.label,
      concurrency: c.concurrency,
      tool: c.tool,
      variants: c.variants.map((v) => {
        const aRounds = got.get(slots.find((s) => s.variant === v.name)!)!;
        const comparison = compare(aRounds.map((a, i) => ({ a, b: bareRounds[i] })));
        return { name: v.name, note: v.note, comparison, cpuAboveBareMs: cpuAboveBare(comparison) };
      }),
    };
  });
  report(results, {
    rounds: ROUNDS,
    roundMs: ROUND_MS,
    targets: TARGETS,
    resultsPath: RESULTS,
    seconds: (performance.now() - began) / 1000,
  });
}

if (import.meta.main) {
  await main();
}

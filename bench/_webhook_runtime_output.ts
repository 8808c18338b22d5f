/**
 * The runtime webhook benchmark's output: the printed table, the profile summary and
 * `bench/results/webhook_runtime_bench.json`.
 *
 * @module
 */

import { dirname } from "node:path";
import type { ProfileSummary } from "./_cpu_profile.ts";
import { fmt, median, renderGrid, type RunFigures } from "./_report.ts";

/** One load window against the runtime (R). */
export interface RuntimeWindow {
  /** POSTs answered 202 per second. */
  rps: number;
  /** POSTs refused 503 (queues full) per second. */
  refusedPerSec: number;
  /** Answers neither 202 nor 503. */
  otherErrors: number;
  /** Runs started during the load, per second of load. */
  runsPerSec: number;
  /** Accepted events not run once drained (should be 0). */
  notRun: number;
  /** Time until every accepted event had run after the load (ms). */
  drainMs: number;
  /** Median POST latency (ms). */
  p50Ms: number;
  /** 99th percentile POST latency (ms). */
  p99Ms: number;
  /** Server CPU during the load per 202 (µs). */
  cpuUsDuringLoad: number;
  /** Server CPU from the load's start to the end of the drain per 202 (µs): intake and run. */
  cpuUs: number;
  /** Server CPU time / wall time during the load (1 = one core busy). */
  cpuShare: number;
  /** The model server's CPU per run (µs), from the load's start to the end of the drain. */
  modelCpuUs: number;
}

/** What one round measured, by server label (R, T, B; R0, T0 with `--before`). */
export type Round = Record<string, RuntimeWindow | RunFigures>;

/** Everything one run measured. */
export interface RuntimeOutcome {
  /** Each round's figures by label. */
  rounds: Round[];
  /** R's CPU profile, when asked for. */
  profile?: ProfileSummary;
  /** The earlier checkout R0 and T0 ran from, if any. */
  before?: string;
  /** Wall time of the whole run (s). */
  seconds: number;
}

/** How the run was set up. */
export interface RuntimeSettings {
  /** Concurrent connections. */
  connections: number;
  /** Length of each window (ms). */
  roundMs: number;
  /** POST body size (bytes). */
  bodyBytes: number;
  /** Whether the process kept its conversation (`--history`). */
  history: boolean;
  /** Where the JSON goes. */
  resultsPath: string;
}

function isRuntime(x: RuntimeWindow | RunFigures): x is RuntimeWindow {
  return "refusedPerSec" in x;
}

/** Prints the table (and the profile) and writes the JSON file. */
export function report(r: RuntimeOutcome, s: RuntimeSettings): void {
  const labels = Object.keys(r.rounds[0]).sort((x, y) => order(x) - order(y));
  const cpuUs = (x: RuntimeWindow | RunFigures) => (isRuntime(x) ? x.cpuUs : x.serverCpuUs);
  const each = (
    f: (x: RuntimeWindow | RunFigures, round: Round, label: string) => number | undefined,
    digits = 0,
  ) =>
    labels.map((label) => {
      const values = r.rounds.map((round) => f(round[label], round, label)).filter((v) => v !== undefined);
      return values.length === 0 ? "" : fmt(median(values as number[]), digits);
    });
  const runtime = (f: (x: RuntimeWindow, round: Round, label: string) => number, digits = 0) =>
    each((x, round, label) => (isRuntime(x) ? f(x, round, label) : undefined), digits);
  const rows: string[][] = [
    ["202/s", ...each((x) => x.rps)],
    ["throughput / B's (median of rounds)", ...each((x, round) => x.rps / round.B.rps, 2)],
    ["server CPU per 202 (us; R: load + drain)", ...each(cpuUs)],
    ["CPU per 202 / B's (median of rounds)", ...each((x, round) => cpuUs(x) / cpuUs(round.B), 2)],
    ["R: CPU per 202 during the load only (us)", ...runtime((x) => x.cpuUsDuringLoad)],
    [
      "R: minus its T's CPU per 202: the run (us)",
      ...runtime((x, round, label) => x.cpuUs - cpuUs(round[`T${label.slice(1)}`])),
    ],
    ["R: model server CPU per run (us)", ...runtime((x) => x.modelCpuUs)],
    ["server CPU use (cores)", ...each((x) => (isRuntime(x) ? x.cpuShare : x.serverCpuShare), 2)],
    ["R: runs started during the load (/s)", ...runtime((x) => x.runsPerSec)],
    ["R sustained: runs/s / B's 202/s", ...runtime((x, round) => x.runsPerSec / round.B.rps, 2)],
    ["R: refused 503 (/s)", ...runtime((x) => x.refusedPerSec)],
    ["R: other errors, not run after drain", ...runtime((x) => x.otherErrors + x.notRun)],
    ["R: drain after the load (ms)", ...runtime((x) => x.drainMs)],
    ["latency p50 (ms)", ...each((x) => x.p50Ms, 2)],
    ["latency p99 (ms)", ...each((x) => x.p99Ms, 2)],
  ];
  console.log(
    `\nWebhook on the real runtime: R = agentry runtime start (signed webhook, concurrency 8, real runs ` +
      `against an instant local model server${s.history ? ", conversation history on" : ""}), T = ` +
      `WebhookTrigger alone (HMAC), B = bare Deno.serve + node:crypto HMAC` +
      `${r.before ? `; R0, T0 = the same from ${r.before}` : ""}; ${s.connections} connections, ` +
      `${s.bodyBytes}-byte body, ${r.rounds.length} interleaved rounds x ${s.roundMs / 1000} s, medians. ` +
      `Goal: R's throughput / B's >= 0.7.\n`,
  );
  console.log(renderGrid(rows.map((row) => [...row, ""]), ["figure", ...labels, ""]));
  if (r.profile) printProfile(r.profile);
  console.log(
    `\ndeno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ${fmt(r.seconds)} s total`,
  );
  Deno.mkdirSync(dirname(s.resultsPath), { recursive: true });
  const json = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    cores: navigator.hardwareConcurrency,
  };
  Deno.writeTextFileSync(s.resultsPath, JSON.stringify({ ...json, ...s, ...r }, null, 2) + "\n");
  console.log(`figures written to ${s.resultsPath}`);
}

function order(label: string): number {
  return ["R", "R0", "T", "T0", "B"].indexOf(label);
}

/** Where R's main-thread time goes: own callers grouped by stage, as shares of the busy (not idle) time. */
const AREAS: Array<[string, RegExp]> = [
  [
    "intake: HTTP, body, HMAC, webhook trigger",
    /src\/(triggers\/(webhook|_webhook|trigger_base)|_util\/(read_body|hmac_sha256|_serve|serve|deadlines))/,
  ],
  [
    "event path: listener, process queue, ledger, worker",
    /src\/(triggers\/triggers_part|runtime\/(delivery|event_ledger|process_runs|process\.ts)|_util\/bounded_queue)/,
  ],
  ["file appends: ledger, journal, stores", /src\/(_util\/(append_file|record_log)|journal\/)/],
  ["model call (client side)", /src\/models\//],
  ["agent run: prompt, loop, context, run log", /src\/(agent|runtime|guardrails)\//],
  ["control API (the benchmark's status polls)", /src\/api\//],
];

/** Shares of R's busy main-thread time by stage (see {@linkcode AREAS}). */
export function profileAreas(p: ProfileSummary): Array<{ name: string; share: number }> {
  const ms = (name: string) => p.files.find((e) => e.name === name)?.ms ?? 0;
  const busy = p.profiledMs - ms("(idle)");
  const sums = new Map<string, number>(AREAS.map(([name]) => [name, 0]));
  let other = 0;
  for (const e of p.ownCallers) {
    const area = AREAS.find(([, pattern]) => pattern.test(e.name));
    if (area) sums.set(area[0], sums.get(area[0])! + e.ms);
    else if (e.name !== "(no own frame)") other += e.ms;
  }
  const noOwn = (p.ownCallers.find((e) => e.name === "(no own frame)")?.ms ?? 0) - ms("(idle)");
  const gc = ms("(garbage collector)");
  return [
    ...[...sums].map(([name, value]) => ({ name, share: value / busy })),
    { name: "other own code", share: other / busy },
    { name: "garbage collector", share: gc / busy },
    {
      name: "no own frame on the stack (runtime internals, I/O ops), GC excluded",
      share: (noOwn - gc) / busy,
    },
  ];
}

function printProfile(p: ProfileSummary): void {
  const busy = p.profiledMs - (p.files.find((e) => e.name === "(idle)")?.ms ?? 0);
  const list = (entries: ReadonlyArray<{ name: string; ms?: number; share: number }>, top = 15) =>
    entries.filter((e) => e.name !== "(idle)").slice(0, top).map((e) =>
      `  ${((e.ms === undefined ? e.share : e.ms / busy) * 100).toFixed(1).padStart(5)}%  ${e.name}`
    ).join("\n");
  console.log(
    `\nR's CPU profile, main thread: ${fmt(busy)} ms busy of ${fmt(p.profiledMs)} ms profiled (the ` +
      `profile spans T's and B's windows too, when R idles); shares of the busy time.\nBy stage:`,
  );
  console.log(list(profileAreas(p), 20));
  console.log(`By file:\n${list(p.files)}\nBy function:\n${list(p.functions)}`);
  console.log(`By own caller:\n${list(p.ownCallers.filter((e) => e.name !== "(no own frame)"))}`);
}

/**
 * The MCP benchmark's output: the printed tables and `bench/results/mcp.json`.
 *
 * @module
 */

import { dirname } from "node:path";
import { compare, type Comparison, fmt, median, renderGrid, type RunFigures } from "./_report.ts";

/** One benchmarked server. */
export interface VariantInfo {
  /** Short key used in ratios (`a`..`d`; diagnostic ones longer). */
  key: string;
  /** Column label. */
  label: string;
  /** What it is. */
  about: string;
}

/** One run's figures, plus the CPU other processes on the machine used meanwhile (cores; noise). */
export type McpRunFigures = RunFigures & { otherCpuShare: number };

/** Everything one run measured. */
export interface McpOutcome {
  /** The servers, in column order (`a`, `b`, `c`, `d` first). */
  variants: readonly VariantInfo[];
  /** Figures of every server in every round, by key. */
  rounds: Array<Record<string, McpRunFigures>>;
  /** Each server's checked first answer (content type and size). */
  samples: Record<string, unknown>;
  /** Memory of each server after the rounds (bytes). */
  memory: Record<string, { rss: number; peak: number }>;
  /** Lines in each audit log after the run, by server key ((c), (c2)). */
  auditEntries: Record<string, number>;
  /** Wall time of the whole run (s). */
  seconds: number;
}

/** How the run was set up. */
export interface McpSettings {
  /** Concurrent connections (one session each). */
  connections: number;
  /** Rounds. */
  rounds: number;
  /** Length of each run (ms). */
  roundMs: number;
  /** Warm-up per server (ms). */
  warmupMs: number;
  /** Where the JSON goes. */
  resultsPath: string;
  /** Where CPU profiles went, if any. */
  profileDir?: string;
}

/** Throughput targets: `x/y >= min` (ours ahead of FastMCP is `> 1`); `min` 0 shows the ratio only. */
const TARGETS: ReadonlyArray<{ x: string; y: string; min: number; strict?: boolean }> = [
  { x: "b", y: "a", min: 0.9 },
  { x: "c", y: "a", min: 0.8 },
  { x: "d", y: "a", min: 0 },
  { x: "b", y: "d", min: 1, strict: true },
  { x: "c", y: "d", min: 1, strict: true },
  // 2026-07-28: against the bare SDK v2, and against today's bare SDK on 2025 sessions.
  { x: "a2", y: "a", min: 0 },
  { x: "b2", y: "a2", min: 0 },
  { x: "c2", y: "a2", min: 0 },
  { x: "b2", y: "a", min: 0 },
  { x: "c2", y: "a", min: 0 },
];
/** Keys of the main servers (others are diagnostic or `--before`). */
const MAIN_KEYS = ["a", "b", "c", "d", "a2", "b2", "c2"];

/** Comparison of `x` against `y` over the rounds (`ratio` = median of per-round x/y). */
function pair(rounds: McpOutcome["rounds"], x: string, y: string): Comparison {
  return compare(rounds.map((r) => ({ a: r[x], b: r[y] })));
}

function medians(rounds: McpOutcome["rounds"], key: string): McpRunFigures {
  const fields = Object.keys(rounds[0][key]) as Array<keyof McpRunFigures>;
  const out = {} as McpRunFigures;
  for (const field of fields) out[field] = median(rounds.map((r) => r[key][field]));
  return out;
}

/** Prints both tables and writes the JSON file. */
export function report(r: McpOutcome, s: McpSettings): void {
  const keys = r.variants.map((v) => v.key);
  const m: Record<string, McpRunFigures> = Object.fromEntries(keys.map((k) => [k, medians(r.rounds, k)]));
  const mb = (bytes: number) => fmt(bytes / 2 ** 20, 1);
  const row = (label: string, value: (k: string) => string) => [label, ...keys.map(value), ""];
  const figures = [
    row("tools/call throughput (req/s)", (k) => fmt(m[k].rps)),
    row("latency p50 (ms)", (k) => fmt(m[k].p50Ms, 2)),
    row("latency p99 (ms)", (k) => fmt(m[k].p99Ms, 2)),
    row("server CPU/request (us)", (k) => fmt(m[k].serverCpuUs)),
    row("server CPU use (cores)", (k) => fmt(m[k].serverCpuShare, 2)),
    row("generator CPU/request (us)", (k) => fmt(m[k].generatorCpuUs)),
    row("errors (median per run)", (k) => fmt(m[k].errors)),
    row("other processes' CPU (cores)", (k) => fmt(m[k].otherCpuShare, 2)),
    row("RSS after the rounds (MB)", (k) => mb(r.memory[k].rss)),
  ];
  console.log(
    `\nMCP tools/call over streamable HTTP, ${s.connections} keep-alive connections (2025-11-25: one session ` +
      `each, SSE answers; 2026-07-28: no session, JSON answers unless streamed), ${s.rounds} rounds x ` +
      `${s.roundMs / 1000} s (in turn, forward then backward), medians\n`,
  );
  console.log(renderGrid(figures, ["figure", ...r.variants.map((v) => v.label), ""]));

  const extra = keys.filter((k) => !MAIN_KEYS.includes(k)).map((x) => ({
    x,
    y: "a",
    min: 0,
    strict: false,
  }));
  // `--before`: (c) against the same stack served by another checkout.
  if (keys.includes("c0") && keys.includes("c")) extra.push({ x: "c", y: "c0", min: 0, strict: false });
  const present = (t: { x: string; y: string }) => keys.includes(t.x) && keys.includes(t.y);
  const ratios = [...TARGETS.filter(present), ...extra].map((t) => ({ ...t, c: pair(r.rounds, t.x, t.y) }));
  const verdict = (t: (typeof ratios)[number]) => {
    if (t.min === 0) {
      return t.x === "c0" || t.y === "c0" ? "before/after" : MAIN_KEYS.includes(t.x) ? "" : "diagnostic";
    }
    const ok = t.strict ? t.c.ratio.rps > t.min : t.c.ratio.rps >= t.min;
    return `${t.strict ? ">" : ">="} ${t.min}: ${ok ? "met" : "MISSED"}`;
  };
  const ratioRows = ratios.map((t) => [
    `${t.x}/${t.y}`,
    fmt(t.c.ratio.rps, 2),
    fmt(t.c.ratio.p99Ms, 2),
    fmt(t.c.ratio.serverCpuUs, 2),
    verdict(t),
  ]);
  console.log("\nratios (median of per-round ratios)\n");
  console.log(renderGrid(ratioRows, ["pair", "throughput", "p99", "CPU/request", "throughput target"]));
  const audited = Object.entries(r.auditEntries).filter(([k]) => keys.includes(k))
    .map(([k, n]) => `(${k}) ${fmt(r.rounds.length === 0 ? 0 : n)}`).join(", ");
  console.log(
    `\nsigned audit entries written: ${audited || "none"}. ` +
      r.variants.map((v) => `${v.label}: ${v.about}`).join("; ") + ".",
  );
  if (s.profileDir) console.log(`CPU profiles in ${s.profileDir}`);
  console.log(`deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ${fmt(r.seconds)} s total`);

  const json = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    cores: navigator.hardwareConcurrency,
    connections: s.connections,
    sessions: "one per connection, opened before the warm-up and kept for the whole run",
    rounds: s.rounds,
    round_seconds: s.roundMs / 1000,
    warmup_seconds: s.warmupMs / 1000,
    variants: r.variants,
    medians: m,
    ratios: Object.fromEntries(ratios.map((t) => [`${t.x}/${t.y}`, {
      rps: t.c.ratio.rps,
      p50Ms: t.c.ratio.p50Ms,
      p99Ms: t.c.ratio.p99Ms,
      serverCpuUs: t.c.ratio.serverCpuUs,
      target: t.min === 0 ? null : `${t.strict ? ">" : ">="} ${t.min}`,
      met: t.min === 0 ? null : t.strict ? t.c.ratio.rps > t.min : t.c.ratio.rps >= t.min,
    }])),
    samples: r.samples,
    memory_after_rounds: r.memory,
    audit_entries: r.auditEntries,
    per_round: r.rounds,
    total_seconds: r.seconds,
  };
  Deno.mkdirSync(dirname(s.resultsPath), { recursive: true });
  Deno.writeTextFileSync(s.resultsPath, JSON.stringify(json, null, 2) + "\n");
  console.log(`figures written to ${s.resultsPath}`);
}

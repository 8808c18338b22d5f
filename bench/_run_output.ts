/**
 * The agent-run benchmark's output: the printed table and `bench/results/runs.json`.
 *
 * @module
 */

import { dirname } from "node:path";
import { type Comparison, fmt, median, renderGrid } from "./_report.ts";

/** One agent variant compared with its case's bare loop. */
export interface VariantResult {
  /** Process name of the variant. */
  name: string;
  /** What differs from the case's main variant ("" for the main one). */
  note: string;
  /** Medians and per-round ratios (`generatorCpuUs`: this process's CPU per run). */
  comparison: Comparison;
  /** Median over rounds of A's minus B's CPU per run in this process (ms). */
  cpuAboveBareMs: number;
}

/** One case: a concurrency, with or without a tool step; its variants share one bare loop. */
export interface CaseResult {
  /** Short key (`plain-c8`, `tool-c1`, ...). */
  key: string;
  /** Label for the table. */
  label: string;
  /** Closed loops (A: the process's `concurrency`). */
  concurrency: number;
  /** One MCP tool step per run. */
  tool: boolean;
  /** The main variant first. */
  variants: VariantResult[];
}

/** Targets of issue 11. */
export interface RunTargets {
  /** Most runtime CPU per run above the bare loop (ms). */
  cpuAboveBareMs: number;
  /** Fewest runs/s at concurrency 8 without tools. */
  minRunsPerSecC8: number;
}

/** A's minus B's CPU per run (ms), median over rounds. */
export function cpuAboveBare(comparison: Comparison): number {
  return median(comparison.rounds.map((r) => (r.a.generatorCpuUs - r.b.generatorCpuUs) / 1000));
}

function rows(cases: readonly CaseResult[], targets: RunTargets): string[][] {
  const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
  const out: string[][] = [];
  for (const c of cases) {
    for (const v of c.variants) {
      const { a, b, ratio } = v.comparison;
      const label = v.note === "" ? c.label : `${c.label}, ${v.note}`;
      const main = v.note === "";
      const rpsTarget = main && !c.tool && c.concurrency === 8
        ? `A >= ${fmt(targets.minRunsPerSecC8)}: ${verdict(a.rps >= targets.minRunsPerSecC8)}`
        : "";
      out.push([`${label}: runs/s`, fmt(a.rps), fmt(b.rps), `${fmt(ratio.rps, 2)} (A/B)`, rpsTarget]);
      const cpuTarget = main
        ? `A-B <= ${targets.cpuAboveBareMs} ms: ${verdict(v.cpuAboveBareMs <= targets.cpuAboveBareMs)}`
        : "";
      out.push([
        `${label}: CPU/run, this process (ms)`,
        fmt(a.generatorCpuUs / 1000, 3),
        fmt(b.generatorCpuUs / 1000, 3),
        `${fmt(v.cpuAboveBareMs, 3)} (A-B)`,
        cpuTarget,
      ]);
      out.push([
        `${label}: latency p50 / p99 (ms)`,
        `${fmt(a.p50Ms, 2)} / ${fmt(a.p99Ms, 2)}`,
        `${fmt(b.p50Ms, 2)} / ${fmt(b.p99Ms, 2)}`,
        "",
        "",
      ]);
      out.push([
        `${label}: server CPU/run (ms)`,
        fmt(a.serverCpuUs / 1000, 3),
        fmt(b.serverCpuUs / 1000, 3),
        `${fmt(ratio.serverCpuUs, 2)} (A/B)`,
        a.errors + b.errors > 0 ? `errors A ${fmt(a.errors)}, B ${fmt(b.errors)}` : "",
      ]);
    }
  }
  return out;
}

/** Prints the table and writes the JSON file. */
export function report(
  cases: readonly CaseResult[],
  settings: { rounds: number; roundMs: number; targets: RunTargets; resultsPath: string; seconds: number },
): void {
  const { rounds, roundMs, targets, resultsPath, seconds } = settings;
  console.log(
    `\nAgent runs (event trigger -> prompt -> model [-> MCP tool -> model] -> reply) vs a bare fetch loop: ` +
      `${rounds} alternating rounds x ${roundMs / 1000} s, medians (ratios and A-B: medians of per-round ` +
      `figures)\n`,
  );
  console.log(renderGrid(rows(cases, targets), ["figure", "A agentry", "B bare fetch", "A vs B", "target"]));
  console.log(`deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ${fmt(seconds)} s total`);
  const json = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    cores: navigator.hardwareConcurrency,
    rounds,
    round_seconds: roundMs / 1000,
    targets,
    cases: cases.map((c) => ({
      key: c.key,
      label: c.label,
      concurrency: c.concurrency,
      tool: c.tool,
      variants: c.variants.map((v) => ({
        name: v.name,
        note: v.note,
        cpu_above_bare_ms: v.cpuAboveBareMs,
        a: v.comparison.a,
        b: v.comparison.b,
        ratio: v.comparison.ratio,
        rounds: v.comparison.rounds,
      })),
    })),
    total_seconds: seconds,
  };
  Deno.mkdirSync(dirname(resultsPath), { recursive: true });
  Deno.writeTextFileSync(resultsPath, JSON.stringify(json, null, 2) + "\n");
  console.log(`figures written to ${resultsPath}`);
}

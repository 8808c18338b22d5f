/**
 * The benchmark's output: the printed table and `bench/results/api_bench.json`.
 *
 * @module
 */

import { dirname } from "node:path";
import type { Generator } from "./_load.ts";
import { type Comparison, comparisonRows, fmt, renderTable, type Row, type RunFigures } from "./_report.ts";
import type { RssFigures } from "./_rss.ts";

/** Everything one run measured. */
export interface BenchOutcome {
  /** Load generator used for the rounds. */
  generator: Generator;
  /** GET figures of each generator on each server. */
  calibration: Record<Generator, { a: RunFigures; b: RunFigures }>;
  /** GET comparison. */
  get: Comparison;
  /** POST comparison. */
  post: Comparison;
  /** `--diagnose` comparisons against A without token and store. */
  lean: { get: Comparison; post: Comparison } | undefined;
  /** Memory of a fresh server, empty and with processes. */
  rss: RssFigures;
  /** Memory of A and B after the load rounds (A holds every POSTed process). */
  afterLoad: { a: { rss: number; peak: number }; b: { rss: number; peak: number } };
  /** Wall time of the whole run. */
  seconds: number;
}

/** How the run was set up. */
export interface BenchSettings {
  /** Concurrent connections. */
  connections: number;
  /** Alternating rounds. */
  rounds: number;
  /** Length of each run in a round (ms). */
  roundMs: number;
  /** Targets shown beside the figures. */
  targets: { getRatio: number; p99Ms: number; rssMb: number };
  /** Where the JSON goes. */
  resultsPath: string;
}

/** Prints the table and writes the JSON file. */
export function report(r: BenchOutcome, settings: BenchSettings): void {
  const { connections, rounds, roundMs, targets, resultsPath } = settings;
  const mb = (bytes: number) => bytes / 2 ** 20;
  const rows: Row[] = [
    ...comparisonRows("GET ", r.get, { ratio: targets.getRatio, p99: targets.p99Ms }),
    ...comparisonRows("POST", r.post, { p99: targets.p99Ms }),
    ...(r.lean ? leanRows(r.lean) : []),
    ["RSS, 0 processes (MB)", fmt(mb(r.rss.empty.rss), 1), "", "", ""],
    [
      `RSS, ${fmt(r.rss.processes)} running idle (MB)`,
      fmt(mb(r.rss.loaded.rss), 1),
      "",
      "",
      `< ${targets.rssMb} MB: ${mb(r.rss.loaded.rss) < targets.rssMb ? "met" : "MISSED"}`,
    ],
    ["RSS per process (KB)", fmt(r.rss.perProcessBytes / 1024, 1), "", "", ""],
  ];
  const cal = r.calibration;
  console.log(
    `\nAgentry control API vs bare Hono on Deno.serve: ${connections} keep-alive connections, ` +
      `${rounds} alternating rounds x ${roundMs / 1000} s, medians (A/B: median of per-round ratios)\n`,
  );
  console.log(renderTable(rows));
  console.log(
    `\nload generator: ${r.generator} (GET on B: raw ${fmt(cal.raw.b.rps)} req/s at ` +
      `${fmt(cal.raw.b.generatorCpuUs)} us/req, fetch ${fmt(cal.fetch.b.rps)} req/s at ` +
      `${fmt(cal.fetch.b.generatorCpuUs)} us/req; A/B raw ${fmt(cal.raw.a.rps / cal.raw.b.rps, 2)}, ` +
      `fetch ${fmt(cal.fetch.a.rps / cal.fetch.b.rps, 2)})`,
  );
  console.log(`deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ${fmt(r.seconds)} s total`);
  const json = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    cores: navigator.hardwareConcurrency,
    connections,
    rounds,
    round_seconds: roundMs / 1000,
    generator: r.generator,
    targets,
    calibration: r.calibration,
    get: r.get,
    post: r.post,
    lean: r.lean ?? null,
    rss: r.rss,
    rss_after_load: r.afterLoad,
    total_seconds: r.seconds,
  };
  Deno.mkdirSync(dirname(resultsPath), { recursive: true });
  Deno.writeTextFileSync(resultsPath, JSON.stringify(json, null, 2) + "\n");
  console.log(`figures written to ${resultsPath}`);
}

function leanRows(lean: { get: Comparison; post: Comparison }): Row[] {
  const rows: Row[] = [];
  for (const [label, c] of [["GET ", lean.get], ["POST", lean.post]] as const) {
    const note = "diagnostic: A without token, without store";
    rows.push([`${label} lean A throughput (req/s)`, fmt(c.a.rps), fmt(c.b.rps), fmt(c.ratio.rps, 2), note]);
    rows.push([
      `${label} lean A CPU/request (us)`,
      fmt(c.a.serverCpuUs),
      fmt(c.b.serverCpuUs),
      fmt(c.ratio.serverCpuUs, 2),
      "",
    ]);
  }
  return rows;
}

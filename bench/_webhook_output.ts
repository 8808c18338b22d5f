/**
 * The webhook benchmark's output: the printed tables and `bench/results/webhook_bench.json`.
 *
 * @module
 */

import { dirname } from "node:path";
import { type Comparison, comparisonRows, fmt, median, renderTable, type Row } from "./_report.ts";

/** One end-to-end load window against one runtime subprocess. */
export interface E2eWindow {
  /** POSTs answered 202 per second. */
  acceptedPerSec: number;
  /** Runs the invoker was called for during the window, per second. */
  pickedPerSec: number;
  /** POSTs answered 202. */
  accepted: number;
  /** Runs started during the window. */
  picked: number;
  /** Events in the trigger queue, the process queue or in flight when the load stopped. */
  queuedAtEnd: number;
  /** POSTs refused with 503 (queue full) per second. */
  refused503PerSec: number;
  /** Answers neither 202 nor 503. */
  otherErrors: number;
  /** Accepted events never run after the drain wait (should be 0). */
  lostAfterDrain: number;
  /** Time until the backlog was gone after the window (ms). */
  drainMs: number;
  /** Median POST latency (ms). */
  p50Ms: number;
  /** 99th percentile POST latency (ms). */
  p99Ms: number;
  /** Server CPU time / wall time (1 = one core busy). */
  serverCpuShare: number;
  /** Server CPU time per accepted POST (µs). */
  serverCpuUs: number;
  /** Load generator CPU time per request (µs). */
  generatorCpuUs: number;
  /** Window length (s). */
  seconds: number;
}

/** Everything one run measured. */
export interface WebhookOutcome {
  /** Part 1: the trigger (plain and with HMAC) against bare `Deno.serve`. */
  accept: {
    plain: Comparison;
    hmac: Comparison;
    samples: Record<string, { status: number; contentType: string; bytes: number }>;
    queues: { a: number; hmac: number };
  };
  /** Part 2: end to end, per concurrency. */
  e2e: Array<{ concurrency: number; windows: E2eWindow[] }>;
  /** Wall time of the whole run (s). */
  seconds: number;
}

/** How the run was set up. */
export interface WebhookSettings {
  /** Concurrent connections. */
  connections: number;
  /** Alternating rounds of part 1. */
  rounds: number;
  /** Length of each part 1 run (ms). */
  roundMs: number;
  /** Length of each end-to-end window (ms). */
  e2eMs: number;
  /** POST body size (bytes). */
  bodyBytes: number;
  /** Target A/B throughput ratio, shown beside the figure. */
  targetRatio: number;
  /** Where the JSON goes. */
  resultsPath: string;
}

const E2E_FIELDS = [
  "acceptedPerSec",
  "pickedPerSec",
  "queuedAtEnd",
  "refused503PerSec",
  "otherErrors",
  "lostAfterDrain",
  "drainMs",
  "p50Ms",
  "p99Ms",
  "serverCpuShare",
  "serverCpuUs",
  "generatorCpuUs",
] as const satisfies ReadonlyArray<keyof E2eWindow>;

type E2eMedians = Record<(typeof E2E_FIELDS)[number] | "pickedShare", number>;

function medians(windows: readonly E2eWindow[]): E2eMedians {
  const out = {} as E2eMedians;
  for (const field of E2E_FIELDS) out[field] = median(windows.map((w) => w[field]));
  out.pickedShare = median(windows.map((w) => w.picked / Math.max(1, w.accepted)));
  return out;
}

/** Prints both tables and writes the JSON file. */
export function report(r: WebhookOutcome, s: WebhookSettings): void {
  const { plain, hmac } = r.accept;
  const rows1: Row[] = [
    ...comparisonRows("plain", plain, { ratio: s.targetRatio }),
    ...comparisonRows("HMAC ", hmac, { ratio: s.targetRatio }),
    [
      "load generator CPU/request (us)",
      fmt(plain.a.generatorCpuUs),
      fmt(plain.b.generatorCpuUs),
      fmt(plain.ratio.generatorCpuUs, 2),
      "",
    ],
  ];
  console.log(
    `\n1. Webhook POST accepted: WebhookTrigger (A; "HMAC" rows: with hmacSecret, signed requests) vs bare ` +
      `Deno.serve (B), ${s.connections} keep-alive connections, ${s.bodyBytes}-byte JSON body, ` +
      `${s.rounds} alternating rounds x ${s.roundMs / 1000} s, medians (A/B: median of per-round ratios)\n`,
  );
  console.log(renderTable(rows1, ["figure", "A trigger", "B bare", "A/B", "target"]));
  const answers = Object.entries(r.accept.samples).map(([k, v]) =>
    `${k} ${v.status} ${v.bytes} B ${v.contentType}`
  );
  console.log(
    `answers: ${answers.join(", ")}; trigger queues after the rounds: ${r.accept.queues.a}, ` +
      `${r.accept.queues.hmac}. Server and generator share ${navigator.hardwareConcurrency} cores: ` +
      `"server CPU/request" is the figure least disturbed by that.`,
  );

  const [one, eight] = r.e2e.map((e) => medians(e.windows));
  const row = (label: string, field: keyof E2eMedians, digits = 0, note = ""): Row => [
    label,
    fmt(one[field], digits),
    fmt(eight[field], digits),
    fmt(eight[field] / one[field], 2),
    note,
  ];
  const vsTrigger = (m: E2eMedians) => fmt(m.acceptedPerSec / plain.a.rps, 2);
  const rows2: Row[] = [
    row(
      "accepted POSTs (/s)",
      "acceptedPerSec",
      0,
      `vs bare trigger: ${vsTrigger(one)} / ${vsTrigger(eight)}`,
    ),
    row("runs picked up by workers (/s)", "pickedPerSec"),
    row("picked up / accepted", "pickedShare", 3),
    row("gap: queued when load stopped", "queuedAtEnd", 0, "trigger queue + process queue + in flight"),
    row("gap: refused with 503 (/s)", "refused503PerSec"),
    row("other errors", "otherErrors"),
    row("accepted but never run", "lostAfterDrain", 0, "after the drain wait"),
    row("drain after load (ms)", "drainMs", 0),
    row("POST latency p50 (ms)", "p50Ms", 2),
    row("POST latency p99 (ms)", "p99Ms", 2),
    row("server CPU use (cores)", "serverCpuShare", 2),
    row("server CPU/accepted POST (us)", "serverCpuUs"),
  ];
  const windows = r.e2e[0].windows.length;
  console.log(
    `\n2. End to end, POST to worker pick-up: AgentRuntime + triggers part, counting invoker, ` +
      `${s.connections} connections, ${windows} windows x ${s.e2eMs / 1000} s per concurrency, medians\n`,
  );
  console.log(renderTable(rows2, ["figure", "concurrency 1", "concurrency 8", "8/1", "note"]));
  console.log(
    `\ndeno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ${fmt(r.seconds)} s total`,
  );

  const json = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    cores: navigator.hardwareConcurrency,
    connections: s.connections,
    body_bytes: s.bodyBytes,
    rounds: s.rounds,
    round_seconds: s.roundMs / 1000,
    e2e_window_seconds: s.e2eMs / 1000,
    target_ratio: s.targetRatio,
    accept: r.accept,
    e2e: r.e2e.map((e) => ({ ...e, medians: medians(e.windows) })),
    total_seconds: r.seconds,
  };
  Deno.mkdirSync(dirname(s.resultsPath), { recursive: true });
  Deno.writeTextFileSync(s.resultsPath, JSON.stringify(json, null, 2) + "\n");
  console.log(`figures written to ${s.resultsPath}`);
}

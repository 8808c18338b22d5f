/**
 * Summaries of alternating A/B rounds (medians of figures and of per-round ratios) and the printed table.
 *
 * @module
 */

/** One measured run against one server. */
export interface RunFigures {
  /** Requests per second. */
  rps: number;
  /** Median latency (ms). */
  p50Ms: number;
  /** 99th percentile latency (ms). */
  p99Ms: number;
  /** Answers with an unexpected status. */
  errors: number;
  /** Server CPU time per answered request (µs, all server threads). */
  serverCpuUs: number;
  /** Server CPU time / wall time (1 = one core busy). */
  serverCpuShare: number;
  /** Load generator CPU time per request (µs). */
  generatorCpuUs: number;
}

/** Medians over rounds for A and B, and medians of the per-round A/B ratios. */
export interface Comparison {
  /** Median of each figure for A. */
  a: RunFigures;
  /** Median of each figure for B. */
  b: RunFigures;
  /** Median over rounds of A/B per figure (same round, so drift cancels). */
  ratio: RunFigures;
  /** Every round, for the record. */
  rounds: Array<{ a: RunFigures; b: RunFigures }>;
}

/** Median (mean of the middle two for even counts); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const FIELDS: ReadonlyArray<keyof RunFigures> = [
  "rps",
  "p50Ms",
  "p99Ms",
  "errors",
  "serverCpuUs",
  "serverCpuShare",
  "generatorCpuUs",
];

/** Summarises rounds of paired runs. */
export function compare(rounds: Array<{ a: RunFigures; b: RunFigures }>): Comparison {
  const pick = (f: (round: { a: RunFigures; b: RunFigures }) => RunFigures) => {
    const out = {} as RunFigures;
    for (const field of FIELDS) out[field] = median(rounds.map((r) => f(r)[field]));
    return out;
  };
  const ratio = {} as RunFigures;
  for (const field of FIELDS) ratio[field] = median(rounds.map((r) => r.a[field] / r.b[field]));
  return { a: pick((r) => r.a), b: pick((r) => r.b), ratio, rounds };
}

/** A table row: label, A, B, A/B, target note. */
export type Row = [string, string, string, string, string];

/** Renders rows as an aligned text table under `header` (default: the control API benchmark's). */
export function renderTable(
  rows: readonly Row[],
  header: Row = ["figure", "A agentry", "B bare hono", "A/B", "target"],
): string {
  return renderGrid(rows, header);
}

/**
 * Renders rows of any width as an aligned text table under `header`: the first and last columns are
 * left-aligned (labels, notes), the others right-aligned (figures).
 */
export function renderGrid(rows: ReadonlyArray<readonly string[]>, header: readonly string[]): string {
  const all = [header, ...rows];
  const columns = header.length;
  const last = columns - 1;
  const widths = Array.from(
    { length: columns },
    (_, i) => Math.max(...all.map((row) => (row[i] ?? "").length)),
  );
  const line = (row: readonly string[]) =>
    widths.map((w, i) => (i === 0 || i === last ? (row[i] ?? "").padEnd(w) : (row[i] ?? "").padStart(w)))
      .join("  ").trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ").trimEnd();
  return [line(all[0]), rule, ...all.slice(1).map(line)].join("\n");
}

/** Formats a number with `digits` decimals (thousands separated when 0 decimals); "-" for NaN. */
export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return "-";
  return digits === 0 ? Math.round(value).toLocaleString("en-US") : value.toFixed(digits);
}

/** Rows for one endpoint's comparison. */
export function comparisonRows(
  label: string,
  c: Comparison,
  targets: { ratio?: number; p99?: number },
): Row[] {
  const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
  return [
    [
      `${label} throughput (req/s)`,
      fmt(c.a.rps),
      fmt(c.b.rps),
      fmt(c.ratio.rps, 2),
      targets.ratio === undefined ? "" : `A/B >= ${targets.ratio}: ${verdict(c.ratio.rps >= targets.ratio)}`,
    ],
    [`${label} latency p50 (ms)`, fmt(c.a.p50Ms, 2), fmt(c.b.p50Ms, 2), fmt(c.ratio.p50Ms, 2), ""],
    [
      `${label} latency p99 (ms)`,
      fmt(c.a.p99Ms, 2),
      fmt(c.b.p99Ms, 2),
      fmt(c.ratio.p99Ms, 2),
      targets.p99 === undefined ? "" : `A < ${targets.p99} ms: ${verdict(c.a.p99Ms < targets.p99)}`,
    ],
    [
      `${label} server CPU/request (us)`,
      fmt(c.a.serverCpuUs),
      fmt(c.b.serverCpuUs),
      fmt(c.ratio.serverCpuUs, 2),
      "",
    ],
    [
      `${label} server CPU use (cores)`,
      fmt(c.a.serverCpuShare, 2),
      fmt(c.b.serverCpuShare, 2),
      fmt(c.ratio.serverCpuShare, 2),
      "",
    ],
  ];
}

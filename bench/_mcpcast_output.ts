/**
 * The mcpcast benchmark's output: the printed tables and `bench/results/mcpcast.json`.
 *
 * @module
 */

import { dirname } from "node:path";
import type { ProfileEntry, ProfileSummary } from "./_cpu_profile.ts";
import type { PhaseFigures } from "./_mcpcast_phases.ts";
import type { ProcessFigures } from "./_process_run.ts";
import { fmt, median, renderGrid } from "./_report.ts";

/** One measured run: the process figures and the CPU the rest of the machine used meanwhile. */
export type RunRecord = ProcessFigures & { otherCpuS: number };

/** What one command wrote (checked on its warm-up run). */
export interface OutputCheck {
  /** Tools in the generated server. */
  tools: number;
  /** Files written. */
  files: number;
  /** Bytes written. */
  bytes: number;
}

/** A measured command. */
export interface CommandInfo {
  /** Key in `rounds`. */
  key: string;
  /** Column label. */
  label: string;
  /** The command line (temp paths shown as placeholders). */
  argv: string[];
  /** What its warm-up run wrote. */
  output: OutputCheck;
}

/** Everything one run measured. */
export interface McpcastOutcome {
  /** Our two commands and the peer's. */
  commands: CommandInfo[];
  /** The permissions our command ran with, and whether they are the minimal set. */
  permissions: { flags: string[]; minimal: boolean; note: string };
  /** Per round, the figures of each run by key (`ours_default`, `peer_default`, `ours_full`, `peer_full`). */
  rounds: Array<Record<string, RunRecord>>;
  /** `--help` of each tool: the fixed start-up cost (medians). */
  startup: Record<string, ProcessFigures> | undefined;
  /** Phase timings by profile. */
  phases: Record<string, { tools: number; files: number; phases: PhaseFigures[] }> | undefined;
  /** CPU profiles by profile. */
  profiles: Record<string, ProfileSummary> | undefined;
  /** Versions of the tools. */
  versions: { deno: string; v8: string; node: string; peer: string };
  /** Spec measured. */
  spec: { path: string; bytes: number; operations: number };
  /** Wall time of the whole benchmark (s). */
  seconds: number;
}

const FIELDS: ReadonlyArray<keyof RunRecord> = [
  "wallS",
  "userS",
  "sysS",
  "maxRssBytes",
  "treeRssBytes",
  "processes",
  "otherCpuS",
];

function medians(rounds: McpcastOutcome["rounds"], key: string): RunRecord {
  const out = {} as RunRecord;
  for (const field of FIELDS) out[field] = median(rounds.map((r) => r[key][field]));
  out.code = Math.max(...rounds.map((r) => r[key].code));
  return out;
}

/** Median over rounds of the per-round ratio a/b of `field` (same round, so drift cancels). */
function ratio(
  rounds: McpcastOutcome["rounds"],
  a: string,
  b: string,
  field: (r: RunRecord) => number,
): number {
  return median(rounds.map((r) => field(r[a]) / field(r[b])));
}

/** A pair is quiet when the rest of the machine used less CPU than this during each of its two runs. */
const QUIET_CPU_S = 0.1;
const cpu = (r: RunRecord) => r.userS + r.sysS;
const mb = (bytes: number) => fmt(bytes / 2 ** 20, 1);
const verdict = (x: number) => (x < 1 ? "met" : "MISSED");

/** The comparison of one of our commands with its paired peer runs. */
function pairSummary(o: McpcastOutcome, ours: string, peer: string) {
  const a = medians(o.rounds, ours);
  const b = medians(o.rounds, peer);
  const ratios = {
    wall: ratio(o.rounds, ours, peer, (r) => r.wallS),
    cpu: ratio(o.rounds, ours, peer, cpu),
    maxRss: ratio(o.rounds, ours, peer, (r) => r.maxRssBytes),
    treeRss: ratio(o.rounds, ours, peer, (r) => r.treeRssBytes),
  };
  const targets = { faster: ratios.wall < 1, lighter: ratios.maxRss < 1 };
  const quietRounds = o.rounds.filter((r) =>
    r[ours].otherCpuS < QUIET_CPU_S && r[peer].otherCpuS < QUIET_CPU_S
  );
  const quiet = {
    pairs: quietRounds.length,
    wall: ratio(quietRounds, ours, peer, (r) => r.wallS),
    cpu: ratio(quietRounds, ours, peer, cpu),
  };
  return { a, b, ratios, targets, quiet };
}

function pairTable(
  o: McpcastOutcome,
  commands: { ours: CommandInfo; peer: CommandInfo; summary: ReturnType<typeof pairSummary> },
): string {
  const { ours, peer, summary: s } = commands;
  const { a, b, ratios } = s;
  const rows = [
    [
      "wall time (s)",
      fmt(a.wallS, 3),
      fmt(b.wallS, 3),
      fmt(ratios.wall, 2),
      `A/B < 1: ${verdict(ratios.wall)}`,
    ],
    ["CPU user+sys (s)", fmt(cpu(a), 3), fmt(cpu(b), 3), fmt(ratios.cpu, 2), ""],
    [
      "peak RSS, largest process (MB)",
      mb(a.maxRssBytes),
      mb(b.maxRssBytes),
      fmt(ratios.maxRss, 2),
      `A/B < 1: ${verdict(ratios.maxRss)}`,
    ],
    ["peak RSS, tree sum sampled (MB)", mb(a.treeRssBytes), mb(b.treeRssBytes), fmt(ratios.treeRss, 2), ""],
    ["processes in tree (max)", fmt(a.processes), fmt(b.processes), "", ""],
    ["tools generated", fmt(ours.output.tools), fmt(peer.output.tools), "", ""],
    [
      "files / MB written",
      `${ours.output.files} / ${mb(ours.output.bytes)}`,
      `${peer.output.files} / ${mb(peer.output.bytes)}`,
      "",
      "",
    ],
    ["other CPU on machine (s)", fmt(a.otherCpuS, 2), fmt(b.otherCpuS, 2), "", "noise"],
    [
      `quiet pairs only (${s.quiet.pairs} of ${o.rounds.length}): wall, CPU`,
      "",
      "",
      s.quiet.pairs === 0 ? "-" : `${fmt(s.quiet.wall, 2)}, ${fmt(s.quiet.cpu, 2)}`,
      `other CPU < ${QUIET_CPU_S} s in A and B`,
    ],
  ];
  return renderGrid(rows, ["figure", `A ${ours.label}`, `B ${peer.label}`, "A/B", "target"]);
}

/** Prints the tables and writes the JSON file. */
export function report(o: McpcastOutcome, settings: { resultsPath: string; profileDir?: string }): void {
  const byKey = Object.fromEntries(o.commands.map((c) => [c.key, c]));
  const pairs = {
    default: pairSummary(o, "ours_default", "peer_default"),
    full: pairSummary(o, "ours_full", "peer_full"),
  };
  console.log(
    `\nagentry mcpcast vs openapi-mcp-generator ${o.versions.peer} (node ${o.versions.node}): ` +
      `${o.spec.path} (${mb(o.spec.bytes)} MB, ${fmt(o.spec.operations)} operations), ` +
      `${o.rounds.length} rounds of A B pairs, whole processes, medians (A/B: median of per-pair ratios)`,
  );
  console.log(`our permissions: ${o.permissions.flags.join(" ")} (${o.permissions.note})\n`);
  console.log(pairTable(o, { ours: byKey.ours_default, peer: byKey.peer_default, summary: pairs.default }));
  console.log("");
  console.log(pairTable(o, { ours: byKey.ours_full, peer: byKey.peer_full, summary: pairs.full }));
  if (o.startup) {
    const s = o.startup;
    console.log(
      `\nstart-up only (--help, median of 3): ours ${fmt(s.ours.wallS, 3)} s, ${
        mb(s.ours.maxRssBytes)
      } MB; ` +
        `peer ${fmt(s.peer.wallS, 3)} s, ${mb(s.peer.maxRssBytes)} MB`,
    );
  }
  for (const [profile, p] of Object.entries(o.phases ?? {})) {
    console.log(`\nphases, in one process (profile ${profile}, ${p.tools} tools, ${p.files} files):`);
    const rows = p.phases.map((
      f,
    ) => [f.phase, fmt(f.ms, 1), mb(f.rssBytes), mb(f.peakBytes), mb(f.retainedHeapBytes), ""]);
    console.log(
      renderGrid(rows, ["phase", "ms", "RSS after (MB)", "peak so far (MB)", "heap kept (MB)", ""]),
    );
  }
  for (const [profile, p] of Object.entries(o.profiles ?? {})) {
    console.log(
      `\nCPU profile, main thread, self time (profile ${profile}, ${fmt(p.profiledMs)} ms profiled):`,
    );
    const table = (title: string, entries: ProfileEntry[], count: number) =>
      console.log(renderGrid(
        entries.slice(0, count).map((f) => [f.name, fmt(f.ms, 1), `${fmt(f.share * 100, 1)}%`, ""]),
        [title, "ms", "share", ""],
      ));
    table("file", p.files, 8);
    table("function", p.functions, 6);
    table("nearest own caller (src/)", p.ownCallers, 8);
  }
  if (settings.profileDir) console.log(`\nCPU profiles kept in ${settings.profileDir}`);
  console.log(`\ndeno ${o.versions.deno}, ${navigator.hardwareConcurrency} cores, ${fmt(o.seconds)} s total`);
  const json = {
    date: new Date().toISOString(),
    ...o.versions,
    cores: navigator.hardwareConcurrency,
    spec: o.spec,
    method: "each command a whole process under GNU time (wait4 rusage: user/sys CPU, ru_maxrss = largest " +
      "single-process peak RSS in the tree), wall time around spawn/exit, /proc tree sampled every 5 ms for " +
      "process count and summed VmRSS; one unmeasured warm-up run of each first; per round A B pairs",
    permissions: o.permissions,
    commands: o.commands,
    medians: Object.fromEntries(Object.keys(o.rounds[0]).map((k) => [k, medians(o.rounds, k)])),
    ratios: { default: pairs.default.ratios, full: pairs.full.ratios },
    quiet_pairs: { default: pairs.default.quiet, full: pairs.full.quiet },
    targets: { default: pairs.default.targets, full: pairs.full.targets },
    rounds: o.rounds,
    startup: o.startup ?? null,
    phases: o.phases ?? null,
    cpu_profiles: o.profiles ?? null,
    total_seconds: o.seconds,
  };
  Deno.mkdirSync(dirname(settings.resultsPath), { recursive: true });
  Deno.writeTextFileSync(settings.resultsPath, JSON.stringify(json, null, 2) + "\n");
  console.log(`figures written to ${settings.resultsPath}`);
}

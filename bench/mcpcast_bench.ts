/**
 * mcpcast benchmark: wall time and peak memory of the whole `agentry mcpcast` process converting the
 * GitHub REST description (`tests/fixtures/specs/api.github.com.json`, 13 MB, 1,223 operations) into a
 * written project, against `openapi-mcp-generator` (npm, run with Node) converting the same file in the
 * same run. Ours runs twice per round, with the default profile (read-only) and with `--profile full`;
 * each is paired with its own run of the peer (which always generates every operation), in the order
 * A B A' B per round. Every run writes into a new directory under one temp root, removed after the run.
 *
 * Measurement (see `_process_run.ts`): each command is one process under GNU time (`/usr/bin/time`):
 * user/system CPU and `ru_maxrss` (the largest single-process peak RSS in the tree) from the kernel's
 * accounting at exit, wall time around spawn and exit, and a `/proc` sampler of the tree (how many
 * processes, summed `VmRSS`) to show whether the single-process peak is the tree's. Our command runs with
 * the minimal permissions it needs (`--allow-read=<spec>,<tmp> --allow-write=<tmp>`; `-A` only when those
 * are refused, and then reported). One unmeasured warm-up run of each command comes first (Deno's
 * module cache and the OS file cache warm, outputs checked), then the rounds; figures are medians over
 * rounds, ratios medians of per-pair ratios. Targets: ours faster (wall A/B < 1) and lighter (peak RSS
 * A/B < 1). The CPU the rest of the machine used during each run (`/proc/stat`) is recorded as noise;
 * pairs where it stayed under 0.1 s in both runs are "quiet", and their ratios are shown as well.
 *
 * Diagnostics (skipped with `--no-diagnose`): the start-up cost of each tool (`--help`), phase timings and
 * memory in one process (`_mcpcast_phases.ts`), and one `--cpu-prof` run of each profile summarised by file
 * and function (`--cpu-prof DIR` keeps the profiles there).
 *
 * The peer is installed on first use: `npm install --prefix .tools/bench-peers openapi-mcp-generator@4.0.1`.
 * Needs `node` (20) and GNU time (`apt-get install time`). Figures are printed and written to
 * `bench/results/mcpcast.json`.
 *
 * Usage: `deno task bench:mcpcast [--rounds 10] [--no-diagnose] [--cpu-prof DIR]`
 *
 * @module
 */

import { join } from "node:path";
import { diagnose, type Diagnosis } from "./_mcpcast_diagnose.ts";
import {
  type CommandInfo,
  type McpcastOutcome,
  type OutputCheck,
  report,
  type RunRecord,
} from "./_mcpcast_output.ts";
import { checkOutput, ensurePeer, MAIN, output, PEER_BIN, ROOT, SPEC } from "./_mcpcast_setup.ts";
import { GNU_TIME, hasGnuTime, type MeasuredRun, runMeasured } from "./_process_run.ts";
import { machineBusySeconds, makeTempDir, ownCpuSeconds } from "./_server_process.ts";
import { flag } from "./_serve_until_told.ts";

const RESULTS = join(ROOT, "bench", "results", "mcpcast.json");
const ROUNDS = Number(flag("rounds") ?? 10);
const DENO = Deno.execPath();
/** Per round: which run (`slot`) of which command (`key`); each of ours is paired with the peer run after it. */
const ORDER: ReadonlyArray<{ slot: string; key: string }> = [
  { slot: "ours_default", key: "ours_default" },
  { slot: "peer_default", key: "peer" },
  { slot: "ours_full", key: "ours_full" },
  { slot: "peer_full", key: "peer" },
];

/** Runs once, measured, with the CPU the rest of the machine used meanwhile (noise). */
async function measure(argv: string[]): Promise<{ record: RunRecord; run: MeasuredRun }> {
  const [machine0, own0] = [await machineBusySeconds(), await ownCpuSeconds()];
  const run = await runMeasured(argv, { cwd: ROOT });
  const [machine1, own1] = [await machineBusySeconds(), await ownCpuSeconds()];
  const other = machine1 - machine0 - (own1 - own0) - (run.figures.userS + run.figures.sysS);
  return { record: { ...run.figures, otherCpuS: Math.max(0, other) }, run };
}

async function main(): Promise<void> {
  const began = performance.now();
  if (!(ROUNDS >= 5)) throw new Error("--rounds must be at least 5");
  if (!hasGnuTime()) throw new Error(`${GNU_TIME} (GNU time) is missing: apt-get install time`);
  const node = await output("node", ["--version"]);
  if (!node.startsWith("v20.")) console.error(`warning: the peer is meant to run on Node 20, found ${node}`);
  const peerVersion = await ensurePeer();
  await using temp = await makeTempDir("agentry-mcpcast-bench-");
  const tmp = temp.path;
  let perms = [`--allow-read=${SPEC},${tmp}`, `--allow-write=${tmp}`];
  let permsNote = "the minimal set: read the spec and the temp root, write the temp root";
  let n = 0;
  const outDir = (key: string) => join(tmp, `${key}-${n++}`);
  const ours = (out: string, profile: string | undefined, extra: string[] = []) => [
    ...[DENO, "run", ...extra, ...perms, MAIN, "mcpcast", SPEC, "--out", out],
    ...(profile ? ["--profile", profile] : []),
  ];
  const argvs: Record<string, (out: string) => string[]> = {
    ours_default: (out) => ours(out, undefined),
    ours_full: (out) => ours(out, "full"),
    peer: (out) => ["node", PEER_BIN, "-i", SPEC, "-o", out],
  };

  // Warm-up: one unmeasured run of each, outputs checked; our permissions widened only if refused.
  const checks: Record<string, OutputCheck> = {};
  for (const key of ["ours_default", "peer", "ours_full"]) {
    let out = outDir(key);
    let run = (await measure(argvs[key](out))).run;
    const refused = /NotCapable|PermissionDenied|Requires .* access/.test(run.stderr);
    if (key === "ours_default" && run.figures.code !== 0 && refused) {
      permsNote = `-A: the minimal set was refused (${run.stderr.trim().split("\n").at(-1)})`;
      perms = ["-A"];
      out = outDir(key);
      run = (await measure(argvs[key](out))).run;
    }
    checks[key] = await checkOutput(key === "peer" ? "peer" : "ours", out, run);
    await Deno.remove(out, { recursive: true });
    console.error(`warm-up ${key}: ${checks[key].tools} tools, ${checks[key].files} files`);
  }

  const rounds: McpcastOutcome["rounds"] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const round: Record<string, RunRecord> = {};
    for (const { slot, key } of ORDER) {
      const out = outDir(key);
      const { record, run } = await measure(argvs[key](out));
      if (record.code !== 0) throw new Error(`${slot} exited ${record.code}:\n${run.stderr.slice(-2000)}`);
      await Deno.remove(out, { recursive: true });
      round[slot] = record;
    }
    rounds.push(round);
    const show = (k: string) =>
      `${k} ${round[k].wallS.toFixed(2)} s ${(round[k].maxRssBytes / 2 ** 20).toFixed(0)} MB`;
    console.error(`round ${i + 1}/${ROUNDS}: ${ORDER.map(({ slot }) => show(slot)).join(" | ")}`);
  }

  let diagnosis: Diagnosis | undefined;
  if (!Deno.args.includes("--no-diagnose")) {
    const profileDir = flag("cpu-prof") ?? join(tmp, "profiles");
    diagnosis = await diagnose({ perms, ours, outDir, profileDir });
  }

  const shown = (argv: string[]) =>
    argv.map((arg) => (arg === DENO ? "deno" : arg).replaceAll(tmp, "<tmp>").replaceAll(ROOT + "/", ""))
      .map((arg) => arg.replace(/<tmp>\/x$/, "<tmp>/<out>"));
  const info = (key: string, label: string, command: string): CommandInfo => ({
    key,
    label,
    argv: shown(argvs[command](join(tmp, "x"))),
    output: checks[command],
  });
  report({
    commands: [
      info("ours_default", "ours (default)", "ours_default"),
      info("peer_default", "peer", "peer"),
      info("ours_full", "ours (--profile full)", "ours_full"),
      info("peer_full", "peer", "peer"),
    ],
    permissions: { flags: shown(perms), minimal: perms[0] !== "-A", note: permsNote },
    rounds,
    startup: diagnosis?.startup,
    phases: diagnosis?.phases,
    profiles: diagnosis?.profiles,
    versions: { deno: Deno.version.deno, v8: Deno.version.v8, node, peer: peerVersion },
    spec: {
      path: "tests/fixtures/specs/api.github.com.json",
      bytes: (await Deno.stat(SPEC)).size,
      operations: diagnosis?.operations ?? 1223,
    },
    seconds: (performance.now() - began) / 1000,
  }, { resultsPath: RESULTS, profileDir: flag("cpu-prof") });
}

if (import.meta.main) await main();

/**
 * The mcpcast benchmark's diagnostics: where our time and memory go. The start-up cost of each tool
 * (`--help`, median of 3), phase timings and memory in one process (`_mcpcast_phases.ts`, per profile),
 * and one `deno run --cpu-prof` run of the real command per profile, summarised by file, function and
 * nearest caller in `src/`.
 *
 * @module
 */

import { join } from "node:path";
import { type ProfileSummary, summariseProfile } from "./_cpu_profile.ts";
import type { McpcastOutcome } from "./_mcpcast_output.ts";
import type { PhaseFigures } from "./_mcpcast_phases.ts";
import { MAIN, output, PEER_BIN, ROOT, SPEC } from "./_mcpcast_setup.ts";
import { type ProcessFigures, runMeasured } from "./_process_run.ts";
import { median } from "./_report.ts";

const PHASES_SCRIPT = join(ROOT, "bench", "_mcpcast_phases.ts");

/** How to run our command. */
export interface DiagnoseOptions {
  /** Our permission flags. */
  perms: string[];
  /** Our command line writing to `out` with `profile`, `extra` flags after `deno run`. */
  ours: (out: string, profile: string, extra: string[]) => string[];
  /** A new output directory under the temp root. */
  outDir: (key: string) => string;
  /** Where the CPU profiles go. */
  profileDir: string;
}

/** What the diagnostics found. */
export type Diagnosis = Required<Pick<McpcastOutcome, "startup" | "phases" | "profiles">> & {
  /** Operations in the spec, as parsed. */
  operations: number;
};

function medianFigures(runs: ProcessFigures[]): ProcessFigures {
  const out = { ...runs[0] };
  for (const field of Object.keys(out) as Array<keyof ProcessFigures>) {
    out[field] = median(runs.map((r) => r[field]));
  }
  return out;
}

async function startupOf(argv: string[]): Promise<ProcessFigures> {
  const runs: ProcessFigures[] = [];
  for (let i = 0; i < 3; i++) runs.push((await runMeasured(argv, { cwd: ROOT })).figures);
  return medianFigures(runs);
}

/** Runs every diagnostic. */
export async function diagnose(options: DiagnoseOptions): Promise<Diagnosis> {
  const deno = Deno.execPath();
  const startup = {
    ours: await startupOf([deno, "run", ...options.perms, MAIN, "mcpcast", "--help"]),
    peer: await startupOf(["node", PEER_BIN, "--help"]),
  };
  const phases: NonNullable<McpcastOutcome["phases"]> = {};
  let operations = NaN;
  // The first read-only run warms the harness's module cache; the second replaces its figures.
  for (const profile of ["read-only", "read-only", "full"]) {
    const out = options.outDir(`phases-${profile}`);
    const args = ["run", "-A", "--v8-flags=--expose-gc", PHASES_SCRIPT, SPEC, out, profile];
    const text = await output(deno, args);
    await Deno.remove(out, { recursive: true });
    const parsed: { operations: number; tools: number; files: number; phases: PhaseFigures[] } = JSON.parse(
      text,
    );
    operations = parsed.operations;
    phases[profile] = { tools: parsed.tools, files: parsed.files, phases: parsed.phases };
  }
  const profiles: Record<string, ProfileSummary> = {};
  await Deno.mkdir(options.profileDir, { recursive: true });
  for (const profile of ["read-only", "full"]) {
    const out = options.outDir(`prof-${profile}`);
    const name = `mcpcast-${profile}.cpuprofile`;
    const extra = ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`, `--cpu-prof-name=${name}`];
    const run = await runMeasured(options.ours(out, profile, extra), { cwd: ROOT });
    if (run.figures.code !== 0) throw new Error(`--cpu-prof run failed:\n${run.stderr.slice(-2000)}`);
    await Deno.remove(out, { recursive: true });
    profiles[profile] = await summariseProfile(join(options.profileDir, name), ROOT);
  }
  return { startup, phases, profiles, operations };
}

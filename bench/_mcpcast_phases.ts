/**
 * Where `agentry mcpcast` spends its time and memory, phase by phase, in one process: the same library
 * calls the command makes (`parseSpec`, `buildPlan`, `writeProject`), timed one after another, with the
 * process's memory after each. Run by `mcpcast_bench.ts` as its own `deno run --v8-flags=--expose-gc`
 * process; prints one JSON object on stdout.
 *
 * Phases: `startup` (runtime start to this module's first line), `load` (importing the mcpcast modules),
 * `parse`, `plan`, then on their own, output dropped: `savePlan` (the plan's YAML, part of `render`),
 * `render` (renderProject) and `syntax check` (checkRenderedSyntax); then `writeProject` whole, which
 * renders and checks again before writing (so writing the files = writeProject - render - syntax check).
 * After each phase: `VmRSS`, `VmHWM` (the peak so far) and the V8 heap still in use after a full GC
 * (what the phase's results keep alive).
 *
 * Usage: `deno run -A --v8-flags=--expose-gc bench/_mcpcast_phases.ts SPEC OUT_DIR PROFILE` (`-A`: Deno
 * grants `/proc/self` only to all permissions; the permissions do not change the figures)
 *
 * @module
 */

import type { McpcastPlan, ParsedSpec, SafetyProfile } from "../src/mcpcast/mod.ts";

const startupMs = performance.now();

/** One phase's figures. */
export interface PhaseFigures {
  /** Phase name. */
  phase: string;
  /** Wall milliseconds. */
  ms: number;
  /** `VmRSS` after the phase (bytes). */
  rssBytes: number;
  /** `VmHWM` after the phase: peak resident set so far (bytes). */
  peakBytes: number;
  /** V8 heap in use after a full GC (bytes): what is kept alive. */
  retainedHeapBytes: number;
}

/** `VmRSS` and `VmHWM` of this process. */
function procMemory(): { rssBytes: number; peakBytes: number } {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssBytes: kb("VmRSS") * 1024, peakBytes: kb("VmHWM") * 1024 };
}

function retainedHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return gc ? Deno.memoryUsage().heapUsed : NaN;
}

async function main(): Promise<void> {
  const [spec, outDir, profile] = Deno.args;
  if (!spec || !outDir || !profile) throw new Error("usage: _mcpcast_phases.ts SPEC OUT_DIR PROFILE");
  const phases: PhaseFigures[] = [];
  const snap = (phase: string, ms: number) => {
    const memory = procMemory();
    phases.push({ phase, ms, ...memory, retainedHeapBytes: retainedHeap() });
  };
  snap("startup", startupMs);
  const time = async <T>(phase: string, run: () => T | Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const value = await run();
    snap(phase, performance.now() - t0);
    return value;
  };
  const lib = await time("load", () => import("../src/mcpcast/mod.ts"));
  const emit = await import("../src/mcpcast/emit/mod.ts");
  // As the command parses: without the success-response schemas, which only evaluation uses.
  const parsed: ParsedSpec = await time("parse", () => lib.parseSpec(spec, { responseSchemas: false }));
  const plan: McpcastPlan = await time(
    "plan",
    () => lib.buildPlan(parsed, { profile: profile as SafetyProfile }),
  );
  await time("savePlan", () => void lib.savePlan(plan));
  let files: Record<string, string> | undefined = await time("render", () => lib.renderProject(plan));
  await time("syntax check", () => emit.checkRenderedSyntax(files!));
  const rendered = {
    files: Object.keys(files).length,
    bytes: Object.values(files).reduce((n, t) => n + t.length, 0),
  };
  files = undefined;
  retainedHeap();
  const result = await time("writeProject", () => lib.writeProject(plan, outDir, { writePlan: true }));
  console.log(JSON.stringify({
    profile,
    operations: parsed.operations.length,
    tools: plan.tools.length,
    files: result.written.length,
    renderedChars: rendered.bytes,
    phases,
  }));
}

if (import.meta.main) await main();

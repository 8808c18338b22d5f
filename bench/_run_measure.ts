/**
 * Closed-loop windows of the agent-run benchmark: `concurrency` loops each fire a run, wait for its end
 * and fire the next until the window closes; runs per second, latency p50/p99, and CPU per run of this
 * process (`Deno.cpuUsage`, all threads) and of the model server's process (`/proc`).
 *
 * @module
 */

import process from "node:process";
import type { RunFigures } from "./_report.ts";
import type { ServerProcess } from "./_server_process.ts";
import type { RunOutcome } from "./_run_agent_side.ts";

/** Longest wait for the runs in flight when a window closes. */
const RUN_TIMEOUT_MS = 10_000;

/** Fires one run and resolves when it ends. */
export type FireRun = () => Promise<RunOutcome>;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function ownCpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * Runs `concurrency` closed loops of `fire` for `ms`. `generatorCpuUs` is this process's CPU per run,
 * `serverCpuUs` the server process's; runs still in flight when the window closes finish but are not
 * counted.
 */
export async function measureRuns(
  fire: FireRun,
  options: { concurrency: number; ms: number; server: ServerProcess },
): Promise<RunFigures> {
  const { concurrency, ms, server } = options;
  const latencies: number[] = [];
  let errors = 0;
  const server0 = await server.cpuSeconds();
  const own0 = ownCpuUs();
  const t0 = performance.now();
  let open = true;
  // The window closes on a timer: CPU is read then, and runs ending later are not counted.
  const closed = new Promise<{ own: number; server: Promise<number>; at: number }>((resolve) => {
    setTimeout(() => {
      open = false;
      resolve({ own: ownCpuUs(), server: server.cpuSeconds(), at: performance.now() });
    }, ms);
  });
  const loop = async () => {
    while (open) {
      const began = performance.now();
      const outcome = await fire().catch(() => ({ ok: false }));
      if (!open) break;
      if (outcome.ok) latencies.push(performance.now() - began);
      else errors++;
    }
  };
  const loops = Promise.all(Array.from({ length: concurrency }, loop));
  const close = await closed;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("runs still in flight long after the window")), RUN_TIMEOUT_MS);
  });
  await Promise.race([loops, stuck]).finally(() => clearTimeout(timer));
  const server1 = await close.server;
  const runs = latencies.length;
  if (runs === 0) throw new Error(`no run succeeded (${errors} errors)`);
  const seconds = (close.at - t0) / 1000;
  const ended = runs + errors;
  latencies.sort((x, y) => x - y);
  return {
    rps: runs / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    errors,
    serverCpuUs: ((server1 - server0) * 1e6) / ended,
    serverCpuShare: (server1 - server0) / seconds,
    generatorCpuUs: (close.own - own0) / ended,
  };
}

/**
 * One load run against one server subprocess, with the server's and this process's CPU time.
 *
 * @module
 */

import { type LoadOptions, type LoadTarget, runLoad } from "./_load.ts";
import type { RunFigures } from "./_report.ts";
import { ownCpuSeconds, type ServerProcess } from "./_server_process.ts";

/** Runs the load and returns throughput, latency and CPU per request of server and generator. */
export async function measureLoad(
  server: ServerProcess,
  target: LoadTarget,
  options: LoadOptions,
): Promise<RunFigures> {
  const [cpu0, own0] = [await server.cpuSeconds(), await ownCpuSeconds()];
  const result = await runLoad(target, options);
  const [cpu1, own1] = [await server.cpuSeconds(), await ownCpuSeconds()];
  if (result.requests === 0) {
    throw new Error(`${server.label}: no ${target.status} answers (${result.errors} errors)`);
  }
  return {
    rps: result.rps,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.errors,
    serverCpuUs: ((cpu1 - cpu0) * 1e6) / result.requests,
    serverCpuShare: (cpu1 - cpu0) / result.seconds,
    generatorCpuUs: ((own1 - own0) * 1e6) / result.requests,
  };
}

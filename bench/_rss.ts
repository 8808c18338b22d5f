/**
 * Memory of an Agentry server: VmRSS of a fresh server with no process, then with N processes deployed
 * and started through the API (`start: true`) and left idle.
 *
 * @module
 */

import type { ServerProcess } from "./_server_process.ts";

/** Options for {@linkcode measureRss}. */
export interface RssOptions {
  /** Bearer token of the server. */
  token: string;
  /** How many processes to deploy and start. */
  processes: number;
  /** `instructions` of every deployed config. */
  instructions: string;
  /** Concurrent deploy requests. @default 10 */
  connections?: number;
  /** Idle time before each reading (ms). @default 2000 */
  settleMs?: number;
}

/** Memory figures in bytes. */
export interface RssFigures {
  /** Processes deployed and started. */
  processes: number;
  /** Readings with no process (after a few requests). */
  empty: { rss: number; peak: number };
  /** Readings with every process running idle. */
  loaded: { rss: number; peak: number };
  /** (loaded - empty) / processes. */
  perProcessBytes: number;
  /** Seconds the deploys took. */
  deploySeconds: number;
}

/** Spawns a server with `spawn`, measures it, and stops it. */
export async function measureRss(
  spawn: () => Promise<ServerProcess>,
  options: RssOptions,
): Promise<RssFigures> {
  const server = await spawn();
  try {
    const headers = { authorization: `Bearer ${options.token}`, "content-type": "application/json" };
    const settle = () => new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2000));
    // Touch the routes once so both readings include loaded code, not just the bare isolate.
    for (let i = 0; i < 20; i++) {
      await (await fetch(`${server.url}/api/v1/processes`, { headers })).arrayBuffer();
      await (await fetch(`${server.url}/api/v1/health`)).arrayBuffer();
    }
    await settle();
    const empty = await server.memory();
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: options.connections ?? 10 }, async () => {
      while (next < options.processes) {
        const name = `idle${next++}`;
        const body = JSON.stringify({ name, config: { instructions: options.instructions }, start: true });
        const answer = await fetch(`${server.url}/api/v1/processes`, { method: "POST", headers, body });
        const text = await answer.text();
        if (answer.status !== 201 || JSON.parse(text).state !== "running") {
          throw new Error(`deploy ${name}: ${answer.status} ${text}`);
        }
      }
    }));
    const deploySeconds = (performance.now() - started) / 1000;
    const list = await (await fetch(`${server.url}/api/v1/processes`, { headers })).json();
    const running = list.processes.filter((p: { state: string }) => p.state === "running").length;
    if (running !== options.processes) {
      throw new Error(`expected ${options.processes} running, saw ${running}`);
    }
    await settle();
    const loaded = await server.memory();
    return {
      processes: options.processes,
      empty,
      loaded,
      perProcessBytes: (loaded.rss - empty.rss) / options.processes,
      deploySeconds,
    };
  } finally {
    await server.stop();
  }
}

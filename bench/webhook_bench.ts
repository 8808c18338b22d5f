/**
 * Webhook benchmark: figures measured side by side in one run, reported as ratios (nothing passes or fails).
 *
 * 1. Accepted webhook POSTs per second and latency p50/p99, 10 keep-alive connections, a fixed 200-byte
 *    JSON body: A, a started `WebhookTrigger` (own subprocess, a consumer draining `waitForNext()`), A+HMAC,
 *    the same with `hmacSecret` and signed requests, and B, a bare `Deno.serve` that reads the body and
 *    answers 202 with a body of the same shape and length. All three get the identical request bytes
 *    (signature header included; A and B ignore it). Rounds alternate the order (A, A+HMAC, B, then
 *    B, A+HMAC, A); figures are medians over rounds, A/B the median of per-round ratios.
 * 2. End to end, POST to worker pick-up: an `AgentRuntime` with the triggers part and a counting invoker
 *    (own subprocess) runs one process with a webhook trigger and `concurrency` 1, another with 8. Each
 *    window drives POSTs at full speed; the subprocess's invoker count before and right after the window
 *    gives the runs picked up by workers per second; the gap is what was still queued, plus 503s refused.
 *
 * The load comes from this process through the raw `Deno.connect` client of `_load.ts`. Figures are
 * printed and written to `bench/results/webhook_bench.json`.
 *
 * Usage: `deno run --allow-all bench/webhook_bench.ts [--rounds 4] [--seconds 2.5] [--e2e-seconds 3]`
 *
 * @module
 */

import { measureLoad } from "./_measure.ts";
import { createHmac } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LoadTarget, runLoad } from "./_load.ts";
import { compare, type RunFigures } from "./_report.ts";
import { makeTempDir, ownCpuSeconds, ServerProcess } from "./_server_process.ts";
import { flag } from "./_serve_until_told.ts";
import { type E2eWindow, report } from "./_webhook_output.ts";
import type { RuntimeCounts } from "./webhook_runtime_server.ts";
import { HOOK_PATH } from "./webhook_server.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER_SCRIPT = join(HERE, "webhook_server.ts");
const RUNTIME_SCRIPT = join(HERE, "webhook_runtime_server.ts");
const RESULTS = join(HERE, "results", "webhook_bench.json");
const CONNECTIONS = 10;
const ROUNDS = Number(flag("rounds") ?? 4);
const ROUND_MS = Number(flag("seconds") ?? 2.5) * 1000;
const E2E_MS = Number(flag("e2e-seconds") ?? 3) * 1000;
const E2E_ROUNDS = 2;
const WARMUP_MS = 1500;
const DRAIN_LIMIT_MS = 3000;
const SECRET = "webhook-bench-shared-secret-0123456789";
const BODY = fixedBody(200);
const SIGNATURE = `sha256=${createHmac("sha256", SECRET).update(BODY).digest("hex")}`;
const TARGET_RATIO = 0.5;

/** A JSON body of exactly `bytes` bytes. */
function fixedBody(bytes: number): string {
  const base = { event: "order.created", order_id: 48213, customer: "c-0042", amount_cents: 4999, note: "" };
  const pad = bytes - JSON.stringify(base).length;
  return JSON.stringify({ ...base, note: "x".repeat(pad) });
}

function hookTarget(baseUrl: string): LoadTarget {
  const headers = { "x-webhook-signature": SIGNATURE };
  return { baseUrl, method: "POST", path: HOOK_PATH, headers, body: BODY, status: 202 };
}

/** One load run against one server, with the server's and this process's CPU time. */
function measure(server: ServerProcess, ms: number) {
  return measureLoad(server, hookTarget(server.url), {
    generator: "raw",
    connections: CONNECTIONS,
    durationMs: ms,
  });
}

/** One answer from a server, to check that A and B answer alike. */
async function sample(url: string): Promise<{ status: number; contentType: string; bytes: number }> {
  const answer = await fetch(`${url}${HOOK_PATH}`, {
    method: "POST",
    body: BODY,
    headers: { "content-type": "application/json", "x-webhook-signature": SIGNATURE },
  });
  const text = await answer.text();
  return { status: answer.status, contentType: answer.headers.get("content-type") ?? "", bytes: text.length };
}

type Part1Round = { a: RunFigures; hmac: RunFigures; b: RunFigures };

/** Starts a server subprocess that is stopped at the end whatever happens. */
type Spawn = (script: string, args: string[], label: string) => Promise<ServerProcess>;

async function part1(spawn: Spawn) {
  const a = await spawn(SERVER_SCRIPT, ["--mode", "trigger"], "A");
  const hmac = await spawn(SERVER_SCRIPT, ["--mode", "trigger", "--secret", SECRET], "A+HMAC");
  const b = await spawn(SERVER_SCRIPT, ["--mode", "bare"], "B");
  const samples = { a: await sample(a.url), hmac: await sample(hmac.url), b: await sample(b.url) };
  console.error(`answers: ${JSON.stringify(samples)}`);
  for (const server of [a, hmac, b]) await measure(server, WARMUP_MS);
  const rounds: Part1Round[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 === 0 ? [a, hmac, b] : [b, hmac, a];
    const got = new Map<ServerProcess, RunFigures>();
    for (const server of order) got.set(server, await measure(server, ROUND_MS));
    const round = { a: got.get(a)!, hmac: got.get(hmac)!, b: got.get(b)! };
    rounds.push(round);
    const f = (x: number) => Math.round(x).toLocaleString("en-US");
    console.error(
      `  round ${i + 1}/${ROUNDS}: A ${f(round.a.rps)} | A+HMAC ${f(round.hmac.rps)} | B ${f(round.b.rps)} ` +
        `req/s | A/B ${(round.a.rps / round.b.rps).toFixed(2)}`,
    );
  }
  const queueAfter = async (server: ServerProcess) =>
    (await (await fetch(`${server.url}/health`)).json()).queue_size as number;
  const queues = { a: await queueAfter(a), hmac: await queueAfter(hmac) };
  for (const server of [a, hmac, b]) await server.stop();
  return {
    plain: compare(rounds.map((r) => ({ a: r.a, b: r.b }))),
    hmac: compare(rounds.map((r) => ({ a: r.hmac, b: r.b }))),
    samples,
    queues,
  };
}

/** A port that was free a moment ago (bound on 127.0.0.1 port 0 and closed). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

interface E2eServer {
  server: ServerProcess;
  concurrency: number;
  hookUrl: string;
}

async function counts(e: E2eServer): Promise<RuntimeCounts> {
  return await (await fetch(e.server.url)).json();
}

function backlog(c: RuntimeCounts): number {
  const triggerQueue = c.triggers.triggers.reduce((sum, t) => sum + t.queue_size, 0);
  return triggerQueue + Number(c.runs.queue_size ?? 0) + Number(c.runs.in_flight ?? 0);
}

/** Waits until nothing is queued or in flight (bounded); answers the last counts and the wait. */
async function drain(e: E2eServer): Promise<{ counts: RuntimeCounts; ms: number }> {
  const t0 = performance.now();
  let c = await counts(e);
  while (backlog(c) > 0 && performance.now() - t0 < DRAIN_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    c = await counts(e);
  }
  return { counts: c, ms: performance.now() - t0 };
}

async function window(e: E2eServer, ms: number): Promise<E2eWindow> {
  const before = (await drain(e)).counts;
  const [cpu0, own0] = [await e.server.cpuSeconds(), await ownCpuSeconds()];
  const result = await runLoad(hookTarget(e.hookUrl), {
    generator: "raw",
    connections: CONNECTIONS,
    durationMs: ms,
  });
  const at = await counts(e);
  const [cpu1, own1] = [await e.server.cpuSeconds(), await ownCpuSeconds()];
  const after = await drain(e);
  const picked = at.invoked - before.invoked;
  const refused = result.statuses["503"] ?? 0;
  return {
    acceptedPerSec: result.rps,
    pickedPerSec: picked / result.seconds,
    accepted: result.requests,
    picked,
    queuedAtEnd: backlog(at),
    refused503PerSec: refused / result.seconds,
    otherErrors: result.errors - refused,
    lostAfterDrain: result.requests - (after.counts.invoked - before.invoked),
    drainMs: after.ms,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    serverCpuShare: (cpu1 - cpu0) / result.seconds,
    serverCpuUs: ((cpu1 - cpu0) * 1e6) / Math.max(1, result.requests),
    generatorCpuUs: ((own1 - own0) * 1e6) / Math.max(1, result.requests + result.errors),
    seconds: result.seconds,
  };
}

async function part2(spawn: Spawn, work: string) {
  const servers: E2eServer[] = [];
  for (const concurrency of [1, 8]) {
    const port = freePort();
    const args = ["--data-dir", join(work, `c${concurrency}`), "--port", `${port}`];
    const server = await spawn(
      RUNTIME_SCRIPT,
      [...args, "--concurrency", `${concurrency}`],
      `c=${concurrency}`,
    );
    servers.push({ server, concurrency, hookUrl: `http://127.0.0.1:${port}` });
  }
  for (const e of servers) await window(e, WARMUP_MS);
  const windows = new Map<number, E2eWindow[]>(servers.map((e) => [e.concurrency, []]));
  for (let i = 0; i < E2E_ROUNDS; i++) {
    for (const e of i % 2 === 0 ? servers : [...servers].reverse()) {
      const w = await window(e, E2E_MS);
      windows.get(e.concurrency)!.push(w);
      console.error(
        `  e2e c=${e.concurrency}: accepted ${Math.round(w.acceptedPerSec)}/s, picked up ` +
          `${Math.round(w.pickedPerSec)}/s, queued at end ${w.queuedAtEnd}, 503/s ${
            Math.round(w.refused503PerSec)
          }, lost ${w.lostAfterDrain}`,
      );
    }
  }
  for (const e of servers) await e.server.stop();
  return servers.map((e) => ({ concurrency: e.concurrency, windows: windows.get(e.concurrency)! }));
}

async function main(): Promise<void> {
  const began = performance.now();
  await using temp = await makeTempDir("agentry-webhook-bench-");
  const servers: ServerProcess[] = [];
  const spawn: Spawn = async (script, args, label) => {
    const server = await ServerProcess.spawn(script, args, { label });
    servers.push(server);
    return server;
  };
  try {
    const accept = await part1(spawn);
    const e2e = await part2(spawn, temp.path);
    const seconds = (performance.now() - began) / 1000;
    report({ accept, e2e, seconds }, {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      roundMs: ROUND_MS,
      e2eMs: E2E_MS,
      bodyBytes: new TextEncoder().encode(BODY).length,
      targetRatio: TARGET_RATIO,
      resultsPath: RESULTS,
    });
  } finally {
    for (const server of servers) await server.stop();
  }
}

if (import.meta.main) await main();

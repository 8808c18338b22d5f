/**
 * Webhook benchmark on the real runtime: accepted webhook POSTs per second and server CPU per 202, side by
 * side in one run (interleaved rounds, medians of per-round ratios), 10 keep-alive connections, a fixed
 * 200-byte JSON body signed with HMAC-SHA256, identical request bytes for every server:
 *
 * - R: `agentry runtime start` (`main.ts`, its own subprocess, `--no-token`, `AGENTRY_RELAUNCHED=1` so the
 *   measured pid is the serving one) with one manifest process: a signed webhook trigger, `concurrency: 8`,
 *   model `openai-compatible:bench` pointed at an instant local model server (`run_model_server.ts`, its
 *   own subprocess), `context.conversation_history: false` unless `--history` (then every run sends the
 *   last 100 messages). Every 202 is a real run: listener, process queue, worker, prompt, a model call
 *   over HTTP, the run log and journal. R's CPU per 202 counts the server's CPU from the window's start until
 *   every accepted event has run (the drain), divided by the 202s; its throughput counts 202s only (a POST
 *   refused 503 because both queues are full is shown apart).
 * - T: the `WebhookTrigger` alone with the same secret (`webhook_server.ts --mode trigger --secret`), a
 *   consumer draining its queue: the intake without the runtime.
 * - B: a bare `Deno.serve` that reads the body, checks the same HMAC with `node:crypto` and answers the same
 *   bytes (`webhook_server.ts --mode bare --secret`).
 *
 * The model server and the load generator share the machine's cores with R: on 2 cores a run's model call
 * costs CPU in the model server while R waits for it. `--cpu-prof DIR` also writes a V8 CPU profile of R
 * (main thread, warm-up and rounds) and prints its summary by file and own caller.
 *
 * `--before DIR` also measures R0 and T0, the same from another checkout (e.g. `git archive <commit> | tar -x
 * -C DIR`), in the same rounds: the before/after of a change as ratios to the same B.
 *
 * Usage: `deno run --allow-all bench/webhook_runtime_bench.ts [--rounds 4] [--seconds 2.5] [--cpu-prof DIR]
 * [--history] [--before DIR]`
 *
 * @module
 */

import { createHmac } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LoadTarget, runLoad } from "./_load.ts";
import { measureLoad } from "./_measure.ts";
import { makeTempDir, ServerProcess } from "./_server_process.ts";
import { flag } from "./_serve_until_told.ts";
import { type ProfileSummary, summariseProfile } from "./_cpu_profile.ts";
import { report, type Round, type RuntimeWindow } from "./_webhook_runtime_output.ts";
import { HOOK_PATH } from "./webhook_server.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(HERE);
const RESULTS = join(HERE, "results", "webhook_runtime_bench.json");
const CONNECTIONS = 10;
const ROUNDS = Number(flag("rounds") ?? 4);
const ROUND_MS = Number(flag("seconds") ?? 2.5) * 1000;
const PROFILE_DIR = flag("cpu-prof");
const HISTORY = Deno.args.includes("--history");
const BEFORE = flag("before");
const WARMUP_MS = 1500;
const DRAIN_LIMIT_MS = 20_000;
const SECRET = "webhook-bench-shared-secret-0123456789";
const PROCESS = "hooks";
const BODY = JSON.stringify({
  event: "order.created",
  order_id: 48213,
  customer: "c-0042",
  amount_cents: 4999,
  note: "x".repeat(115),
});
const SIGNATURE = `sha256=${createHmac("sha256", SECRET).update(BODY).digest("hex")}`;

function target(baseUrl: string): LoadTarget {
  const headers = { "x-webhook-signature": SIGNATURE };
  return { baseUrl, method: "POST", path: HOOK_PATH, headers, body: BODY, status: 202 };
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

/** The runtime's process status, as far as this benchmark reads it. */
interface Status {
  runs: { invocations: number; queue_size?: number; in_flight?: number; runs_succeeded?: number };
  triggers?: { triggers: Array<{ queue_size: number }> };
}

async function status(runtime: ServerProcess): Promise<Status> {
  const answer = await fetch(`${runtime.url}/api/v1/processes/${PROCESS}`);
  if (!answer.ok) throw new Error(`status: ${answer.status} ${await answer.text()}`);
  return await answer.json();
}

function backlog(s: Status): number {
  const triggers = s.triggers?.triggers.reduce((sum, t) => sum + t.queue_size, 0) ?? 0;
  return triggers + (s.runs.queue_size ?? 0) + (s.runs.in_flight ?? 0);
}

async function drained(runtime: ServerProcess): Promise<{ status: Status; ms: number }> {
  const t0 = performance.now();
  let s = await status(runtime);
  while (backlog(s) > 0 && performance.now() - t0 < DRAIN_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    s = await status(runtime);
  }
  return { status: s, ms: performance.now() - t0 };
}

/** One window against R: load, then the drain, CPU over both. */
async function runtimeWindow(
  { server: runtime, model, hookUrl }: Runtime,
  ms: number,
): Promise<RuntimeWindow> {
  const before = (await drained(runtime)).status;
  const [cpu0, model0] = [await runtime.cpuSeconds(), await model.cpuSeconds()];
  const load = await runLoad(target(hookUrl), { generator: "raw", connections: CONNECTIONS, durationMs: ms });
  const cpuLoad = await runtime.cpuSeconds();
  const atEnd = await status(runtime);
  const after = await drained(runtime);
  const [cpu1, model1] = [await runtime.cpuSeconds(), await model.cpuSeconds()];
  const ran = after.status.runs.invocations - before.runs.invocations;
  const accepted = Math.max(1, load.requests);
  return {
    rps: load.rps,
    refusedPerSec: (load.statuses["503"] ?? 0) / load.seconds,
    otherErrors: load.errors - (load.statuses["503"] ?? 0),
    runsPerSec: (atEnd.runs.invocations - before.runs.invocations) / load.seconds,
    notRun: load.requests - ran,
    drainMs: after.ms,
    p50Ms: load.p50Ms,
    p99Ms: load.p99Ms,
    cpuUsDuringLoad: ((cpuLoad - cpu0) * 1e6) / accepted,
    cpuUs: ((cpu1 - cpu0) * 1e6) / accepted,
    cpuShare: (cpuLoad - cpu0) / load.seconds,
    modelCpuUs: ((model1 - model0) * 1e6) / Math.max(1, ran),
  };
}

async function writeManifest(dir: string, port: number): Promise<void> {
  const manifest = {
    version: "1",
    name: PROCESS,
    start: true,
    model: "openai-compatible:bench",
    instructions: "You are the orders agent. Answer briefly.",
    stream: false,
    concurrency: 8,
    // Each run sees only its event (as in the agent-run benchmark); `--history` keeps the default
    // conversation (the last 100 messages go to the model on every run).
    context: { conversation_history: HISTORY },
    trigger_delivery: { max_retries: 0, max_consecutive_failures: 1_000_000 },
    triggers: [{
      type: "webhook",
      webhook_path: HOOK_PATH,
      webhook_port: port,
      webhook_host: "127.0.0.1",
      hmac_secret: SECRET,
    }],
  };
  await Deno.writeTextFile(join(dir, `${PROCESS}.agent.json`), JSON.stringify(manifest));
}

/** One runtime under test: `main.ts` of `root`, its manifest's webhook on `hookUrl`. */
interface Runtime {
  server: ServerProcess;
  model: ServerProcess;
  hookUrl: string;
}

type Spawn = (script: string, args: string[], label: string, denoArgs?: string[]) => Promise<ServerProcess>;

async function startRuntime(
  spawn: Spawn,
  options: { root: string; label: string; work: string; model: ServerProcess; denoArgs?: string[] },
): Promise<Runtime> {
  const manifests = join(options.work, `${options.label}-manifests`);
  await Deno.mkdir(manifests);
  const hookPort = freePort();
  await writeManifest(manifests, hookPort);
  const args = ["runtime", "start", "--json", "--no-token", "--port", "0", "--log-level", "error"];
  args.push("--data-dir", join(options.work, `${options.label}-data`), "--manifests", manifests);
  const server = await spawn(join(options.root, "main.ts"), args, options.label, options.denoArgs);
  return { server, model: options.model, hookUrl: `http://127.0.0.1:${hookPort}` };
}

async function main(): Promise<void> {
  const began = performance.now();
  await using temp = await makeTempDir("agentry-webhook-runtime-bench-");
  const servers: ServerProcess[] = [];
  const spawn: Spawn = async (script, args, label, denoArgs = []) => {
    const server = await ServerProcess.spawn(script, args, { label, denoArgs, readyTimeoutMs: 60_000 });
    servers.push(server);
    return server;
  };
  try {
    const model = await spawn(join(HERE, "run_model_server.ts"), ["--mcp-port", `${freePort()}`], "model");
    Deno.env.set("OPENAI_COMPATIBLE_BASE_URL", model.url);
    Deno.env.set("AGENTRY_RELAUNCHED", "1");
    const profileName = "webhook_runtime.cpuprofile";
    const prof = PROFILE_DIR
      ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${profileName}`]
      : [];
    const runtimes = new Map<string, Runtime>();
    const triggers = new Map<string, ServerProcess>();
    const trigger = ["--mode", "trigger", "--secret", SECRET];
    for (const [suffix, root] of BEFORE ? [["", ROOT], ["0", BEFORE]] : [["", ROOT]]) {
      const denoArgs = suffix === "" ? prof : [];
      runtimes.set(
        `R${suffix}`,
        await startRuntime(spawn, { root, label: `R${suffix}`, work: temp.path, model, denoArgs }),
      );
      triggers.set(
        `T${suffix}`,
        await spawn(join(root, "bench", "webhook_server.ts"), trigger, `T${suffix}`),
      );
    }
    const bare = await spawn(join(HERE, "webhook_server.ts"), ["--mode", "bare", "--secret", SECRET], "B");
    const measure = (server: ServerProcess, ms: number) =>
      measureLoad(server, target(server.url), { generator: "raw", connections: CONNECTIONS, durationMs: ms });
    const steps = (ms: number) => [
      ...[...runtimes].map(([label, r]) => async () => [label, await runtimeWindow(r, ms)] as const),
      ...[...triggers].map(([label, t]) => async () => [label, await measure(t, ms)] as const),
      async () => ["B", await measure(bare, ms)] as const,
    ];
    for (const step of steps(WARMUP_MS)) await step();
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const round: Round = {};
      const order = i % 2 === 0 ? steps(ROUND_MS) : steps(ROUND_MS).reverse();
      for (const step of order) {
        const [label, figures] = await step();
        round[label] = figures;
      }
      rounds.push(round);
      console.error(`  round ${i + 1}/${ROUNDS}: ${roundLine(round)}`);
    }
    let profile: ProfileSummary | undefined;
    await runtimes.get("R")!.server.stop();
    if (PROFILE_DIR) profile = await summariseProfile(join(PROFILE_DIR, profileName), ROOT, 1000);
    report({ rounds, profile, before: BEFORE, seconds: (performance.now() - began) / 1000 }, {
      connections: CONNECTIONS,
      roundMs: ROUND_MS,
      bodyBytes: BODY.length,
      history: HISTORY,
      resultsPath: RESULTS,
    });
  } finally {
    for (const server of servers) await server.stop();
  }
}

function roundLine(round: Round): string {
  const f = (x: number) => Math.round(x).toLocaleString("en-US");
  return Object.entries(round).map(([label, x]) =>
    "refusedPerSec" in x
      ? `${label} ${f(x.rps)} (runs/s ${f(x.runsPerSec)}, ${f(x.cpuUs)} us/202)`
      : `${label} ${f(x.rps)} (${f(x.serverCpuUs)} us)`
  ).join(" | ");
}

if (import.meta.main) await main();

/**
 * Control API benchmark: the Agentry control API (A) against a bare Hono app on `Deno.serve` (B) that
 * answers the same bytes, measured side by side in one run and reported as ratios.
 *
 * 1. `GET /api/v1/processes/{name}` and 2. `POST /api/v1/processes`: 10 keep-alive connections, same
 *    warm-up for both servers, then alternating A/B rounds (ABBA order); each figure's median over rounds
 *    and the median of the per-round A/B ratios (drift cancels within a round).
 * 3. VmRSS of a fresh Agentry server with 0 and with 1,000 deployed and started idle processes.
 *
 * Each server is its own `deno run` subprocess; the load comes from this process. Figures are printed as a
 * table and written to `bench/results/api_bench.json`. Nothing here passes or fails.
 *
 * Load generator: both are measured on each run (GET on both servers) and the one that drives the bare
 * server harder is used. That is raw `Deno.connect` HTTP/1.1: `fetch` spends about 40 us of client CPU
 * per request against about 7 us for the raw client, so it tops out near 25k req/s, below both servers,
 * and reports A/B near 1.0 whatever the servers cost. "Server CPU/request" (from `/proc/<pid>/stat`)
 * is the figure least disturbed by the shared 2-core machine.
 *
 * Usage: `deno task bench [--rounds 5] [--seconds 3] [--generator raw|fetch] [--diagnose]`
 *
 * `--diagnose` adds (about a minute) both comparisons again for a lean A: no token and no file store,
 * which shows how much of the gap those two cost.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Generator, LoadTarget } from "./_load.ts";
import { measureLoad } from "./_measure.ts";
import { report } from "./_output.ts";
import { compare, type Comparison, fmt, type RunFigures } from "./_report.ts";
import { measureRss, type RssFigures } from "./_rss.ts";
import { makeTempDir, ServerProcess } from "./_server_process.ts";
import { flag } from "./_serve_until_told.ts";
import type { Answers } from "./bare_server.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const AGENTRY_SCRIPT = join(HERE, "agentry_server.ts");
const BARE_SCRIPT = join(HERE, "bare_server.ts");
const RESULTS = join(HERE, "results", "api_bench.json");
const CONNECTIONS = 10;
const ROUNDS = Number(flag("rounds") ?? 5);
const ROUND_MS = Number(flag("seconds") ?? 3) * 1000;
const WARMUP_MS = 1500;
const CALIBRATION_MS = 2000;
const RSS_PROCESSES = 1000;
const INSTRUCTIONS = "You are a benchmark process. Answer in one short sentence.";
const TARGETS = { getRatio: 0.6, p99Ms: 5, rssMb: 150 };

let runId = 0;

function targets(url: string, token: string | undefined): { get: LoadTarget; post: LoadTarget } {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const prefix = () => `p${runId++}x`;
  let names = prefix();
  return {
    get: { baseUrl: url, method: "GET", path: "/api/v1/processes/bench", headers: auth, status: 200 },
    post: {
      baseUrl: url,
      method: "POST",
      path: "/api/v1/processes",
      headers: auth,
      status: 201,
      body: (seq) => {
        if (seq === 0) names = prefix(); // a new run: new names
        return JSON.stringify({ name: `${names}${seq}`, config: { instructions: INSTRUCTIONS } });
      },
    },
  };
}

function measure(server: ServerProcess, target: LoadTarget, generator: Generator, ms: number) {
  return measureLoad(server, target, { generator, connections: CONNECTIONS, durationMs: ms });
}

async function alternate(
  a: { server: ServerProcess; target: LoadTarget },
  b: { server: ServerProcess; target: LoadTarget },
  generator: Generator,
  label: string,
): Promise<Comparison> {
  const rounds: Array<{ a: RunFigures; b: RunFigures }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const first = i % 2 === 0 ? "a" : "b";
    const one = await measure(
      (first === "a" ? a : b).server,
      (first === "a" ? a : b).target,
      generator,
      ROUND_MS,
    );
    const two = await measure(
      (first === "a" ? b : a).server,
      (first === "a" ? b : a).target,
      generator,
      ROUND_MS,
    );
    const round = first === "a" ? { a: one, b: two } : { a: two, b: one };
    rounds.push(round);
    console.error(
      `  ${label} round ${i + 1}/${ROUNDS}: A ${fmt(round.a.rps)} req/s p99 ${fmt(round.a.p99Ms, 2)} ms | ` +
        `B ${fmt(round.b.rps)} req/s p99 ${fmt(round.b.p99Ms, 2)} ms | A/B ${
          fmt(round.a.rps / round.b.rps, 2)
        }`,
    );
  }
  return compare(rounds);
}

async function capture(url: string, token: string): Promise<Answers> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const deploy = async (name: string, start: boolean) => {
    const body = JSON.stringify({ name, config: { instructions: INSTRUCTIONS }, start });
    const answer = await fetch(`${url}/api/v1/processes`, { method: "POST", headers, body });
    const text = await answer.text();
    if (answer.status !== 201) throw new Error(`deploy ${name}: ${answer.status} ${text}`);
    return text;
  };
  await deploy("bench", true);
  const post = await deploy("capture", false);
  const answer = await fetch(`${url}/api/v1/processes/bench`, { headers });
  const get = await answer.text();
  if (answer.status !== 200) throw new Error(`GET bench: ${answer.status} ${get}`);
  return { contentType: answer.headers.get("content-type") ?? "application/json", get, post };
}

async function main(): Promise<void> {
  const began = performance.now();
  await using temp = await makeTempDir("agentry-bench-");
  const work = temp.path;
  const token = crypto.randomUUID().replaceAll("-", "");
  const servers: ServerProcess[] = [];
  try {
    const spawnA = (dir: string) =>
      ServerProcess.spawn(AGENTRY_SCRIPT, ["--data-dir", join(work, dir), "--token", token], { label: "A" });
    const a = await spawnA("a");
    servers.push(a);
    const answers = await capture(a.url, token);
    const answersFile = join(work, "answers.json");
    await Deno.writeTextFile(answersFile, JSON.stringify(answers));
    const b = await ServerProcess.spawn(BARE_SCRIPT, ["--answers", answersFile], { label: "B" });
    servers.push(b);
    const ta = targets(a.url, token);
    const tb = targets(b.url, token);
    console.error(
      `A ${a.url} (pid ${a.pid}), B ${b.url} (pid ${b.pid}); GET body ${answers.get.length} bytes`,
    );

    // Same warm-up for both: each generator on both routes.
    for (const generator of ["raw", "fetch"] as const) {
      for (const [server, t] of [[a, ta], [b, tb]] as const) {
        await measure(server, t.get, generator, WARMUP_MS / 2);
        await measure(server, t.post, generator, WARMUP_MS / 2);
      }
    }
    // Generator calibration: the better generator is the one that drives B (the cheaper server) harder.
    const calibration: Record<Generator, { a: RunFigures; b: RunFigures }> = {
      raw: {
        a: await measure(a, ta.get, "raw", CALIBRATION_MS),
        b: await measure(b, tb.get, "raw", CALIBRATION_MS),
      },
      fetch: {
        b: await measure(b, tb.get, "fetch", CALIBRATION_MS),
        a: await measure(a, ta.get, "fetch", CALIBRATION_MS),
      },
    };
    const forced = flag("generator") as Generator | undefined;
    const generator: Generator = forced ??
      (calibration.raw.b.rps >= calibration.fetch.b.rps ? "raw" : "fetch");
    console.error(
      `generator: raw ${fmt(calibration.raw.b.rps)} req/s on B (${
        fmt(calibration.raw.b.generatorCpuUs)
      } us/req), ` +
        `fetch ${fmt(calibration.fetch.b.rps)} req/s on B (${
          fmt(calibration.fetch.b.generatorCpuUs)
        } us/req) ` +
        `-> ${generator}`,
    );

    const { get, post } = await compareBoth([a, ta], [b, tb], generator, "");
    const afterLoad = { a: await a.memory(), b: await b.memory() };
    await a.stop();
    const lean = Deno.args.includes("--diagnose") ? await diagnose(b, servers, work, generator) : undefined;
    for (const server of servers.splice(0)) await server.stop();

    const rss: RssFigures = await measureRss(() => spawnA("rss").then((s) => (servers.push(s), s)), {
      token,
      processes: RSS_PROCESSES,
      instructions: INSTRUCTIONS,
    });
    const seconds = (performance.now() - began) / 1000;
    report({ generator, calibration, get, post, lean, rss, afterLoad, seconds }, {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      roundMs: ROUND_MS,
      targets: TARGETS,
      resultsPath: RESULTS,
    });
  } finally {
    for (const server of servers) await server.stop();
  }
}

/** GET and POST again against an Agentry server without token and without file store. */
async function diagnose(
  b: ServerProcess,
  servers: ServerProcess[],
  work: string,
  generator: Generator,
): Promise<{ get: Comparison; post: Comparison }> {
  const lean = await ServerProcess.spawn(AGENTRY_SCRIPT, ["--data-dir", join(work, "lean"), "--no-store"], {
    label: "A-lean",
  });
  servers.push(lean);
  await capture(lean.url, "");
  const tl = targets(lean.url, undefined);
  const tb = targets(b.url, undefined);
  await measure(lean, tl.get, generator, WARMUP_MS);
  await measure(lean, tl.post, generator, WARMUP_MS);
  return await compareBoth([lean, tl], [b, tb], generator, " lean");
}

type Side = [ServerProcess, { get: LoadTarget; post: LoadTarget }];

/** GET, then POST, alternating A and B. */
async function compareBoth(a: Side, b: Side, generator: Generator, suffix: string) {
  const side = ([server, target]: Side, kind: "get" | "post") => ({ server, target: target[kind] });
  const get = await alternate(side(a, "get"), side(b, "get"), generator, `GET${suffix}`);
  const post = await alternate(side(a, "post"), side(b, "post"), generator, `POST${suffix}`);
  return { get, post };
}

if (import.meta.main) await main();

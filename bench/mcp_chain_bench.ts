/**
 * MCP middleware chain, in one process: the handlers of `bench:mcp` ((a) the bare SDK, (b) ours, (c) ours
 * with audit, circuit breaker, API-key auth, rate limit and timeout, and (c)'s parts one at a time)
 * called with `Request` objects, no sockets, and CPU time per `tools/call` from `process.cpuUsage()`.
 *
 * Why beside `bench:mcp`: over HTTP each server is its own process and the machine's speed drifts between
 * them, so its ratios move by a tenth from run to run even pinned. Here every variant runs in the same
 * process in short alternating rounds (500 calls, 10 concurrent sessions, forward then backward), and the
 * median of per-round ratios repeats within a few hundredths, which is what attributing a few microseconds
 * to one middleware needs. What it leaves out is Deno's HTTP server, the same for every variant.
 *
 * Each call's answer is read whole and must hold the echoed text, or the run stops.
 *
 * Usage: `deno run -A bench/mcp_chain_bench.ts [--rounds 30] [--calls 500] [--only b,c,audit,...]`
 *
 * @module
 */

import { cpuUsage } from "node:process";
import { parseArgs } from "node:util";
import { fmt, median, renderGrid } from "./_report.ts";
import { API_KEY, FULL_MIDDLEWARE, MCP_PATH, oursHandler, sdkHandler, TOOL_NAME } from "./mcp_server.ts";

type Handler = (request: Request) => Response | Promise<Response>;

/** A variant: its key and the middleware list of `oursHandler` (`undefined` for the bare SDK). */
const VARIANTS: ReadonlyArray<{ key: string; about: string; middleware?: string }> = [
  { key: "a", about: "bare SDK" },
  { key: "b", about: "ours, no middleware", middleware: "" },
  { key: "c", about: "ours + audit, breaker, auth, rate, timeout", middleware: FULL_MIDDLEWARE },
  { key: "audit", about: "audit only (signed, file)", middleware: "audit" },
  { key: "audit-unsig", about: "audit only (unsigned, file)", middleware: "audit-unsigned" },
  { key: "breaker", about: "circuit breaker only", middleware: "breaker" },
  { key: "auth", about: "API-key auth only", middleware: "auth" },
  { key: "rate", about: "rate limit only", middleware: "rate" },
  { key: "timeout", about: "timeout only", middleware: "timeout" },
  {
    key: "noop5",
    about: "five async middleware that only await next()",
    middleware: "noop,noop,noop,noop,noop",
  },
];

const URL_ = `http://127.0.0.1:1${MCP_PATH}`;
const HEADERS = {
  host: "127.0.0.1:1",
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "x-api-key": API_KEY,
};

async function post(handler: Handler, body: unknown, extra: Record<string, string>) {
  const request = new Request(URL_, {
    method: "POST",
    headers: { ...HEADERS, ...extra },
    body: JSON.stringify(body),
  });
  const answer = await handler(request);
  return { answer, text: await answer.text() };
}

/** Ten sessions on `handler`, each initialised. */
async function sessions(handler: Handler): Promise<Record<string, string>[]> {
  const out = [];
  for (let i = 0; i < 10; i++) {
    const init = await post(handler, {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "chain-bench", version: "1" },
      },
    }, {});
    const id = init.answer.headers.get("mcp-session-id");
    if (id === null) throw new Error(`initialize failed: ${init.answer.status} ${init.text.slice(0, 200)}`);
    const session = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
    out.push(session);
  }
  return out;
}

/** CPU microseconds per call for `calls` calls spread over the sessions, each answer checked. */
async function round(handler: Handler, open: Record<string, string>[], calls: number): Promise<number> {
  const before = cpuUsage();
  const each = Math.ceil(calls / open.length);
  await Promise.all(open.map(async (session) => {
    for (let i = 0; i < each; i++) {
      const body = {
        jsonrpc: "2.0",
        id: i + 2,
        method: "tools/call",
        params: { name: TOOL_NAME, arguments: { text: "hi" } },
      };
      const { answer, text } = await post(handler, body, session);
      if (answer.status !== 200 || !text.includes('"text":"hi"')) {
        throw new Error(`tools/call failed: ${answer.status} ${text.slice(0, 300)}`);
      }
    }
  }));
  const used = cpuUsage(before);
  return (used.user + used.system) / (each * open.length);
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rounds: { type: "string", default: "30" },
      calls: { type: "string", default: "500" },
      only: { type: "string" },
    },
  });
  const rounds = Number(values.rounds);
  const calls = Number(values.calls);
  const only = values.only?.split(",");
  const chosen = VARIANTS.filter((v) =>
    v.key === "a" || (only ? only.includes(v.key) : ["b", "c"].includes(v.key))
  );
  for (const key of only ?? []) {
    if (!VARIANTS.some((v) => v.key === key)) throw new Error(`--only: unknown variant '${key}'`);
  }
  const dir = await Deno.makeTempDir({ prefix: "agentry-chain-bench-" });
  const started = performance.now();
  const servers = [];
  for (const variant of chosen) {
    const names = variant.middleware?.split(",").filter(Boolean);
    const handler: Handler = names === undefined
      ? sdkHandler()
      : oursHandler(names, `${dir}/${variant.key}.jsonl`);
    servers.push({ ...variant, handler, open: await sessions(handler), cpu: [] as number[] });
  }
  for (let warm = 0; warm < 2; warm++) for (const s of servers) await round(s.handler, s.open, calls);
  for (let r = 0; r < rounds; r++) {
    for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
      s.cpu.push(await round(s.handler, s.open, calls));
    }
  }
  const a = servers[0].cpu;
  const b = servers.find((s) => s.key === "b")?.cpu;
  const rows = servers.map((s) => [
    s.key,
    fmt(median(s.cpu), 1),
    fmt(median(s.cpu.map((v, i) => v / a[i])), 2),
    b && s.key !== "a" && s.key !== "b" ? fmt(median(s.cpu.map((v, i) => v - b[i])), 1) : "",
    s.about,
  ]);
  console.log(
    `\nMCP tools/call in one process (no sockets), ${rounds} rounds x ${calls} calls, 10 sessions, medians\n`,
  );
  console.log(renderGrid(rows, ["variant", "CPU/call (us)", "vs (a)", "over (b) (us)", "what"]));
  console.log(`\ndeno ${Deno.version.deno}, ${Math.round((performance.now() - started) / 1000)} s total`);
  const results = Object.fromEntries(servers.map((s) => [s.key, { cpuPerCallUs: s.cpu, about: s.about }]));
  await Deno.writeTextFile(
    new URL("./results/mcp_chain.json", import.meta.url),
    JSON.stringify({ rounds, calls, deno: Deno.version.deno, results }, null, 2) + "\n",
  );
  await Deno.remove(dir, { recursive: true });
  Deno.exit(0);
}

/**
 * MCP middleware chain, in one process: the handlers of `bench:mcp` ((a) the bare SDK, (b) ours, (c) ours
 * with audit, circuit breaker, API-key auth, rate limit and timeout, and (c)'s parts one at a time)
 * called with `Request` objects, no sockets, and CPU time per `tools/call` from `process.cpuUsage()`.
 * On 2026-07-28 (stateless, no session): (a2) the bare SDK v2 (`_mcp_sdk2.ts`), and (b2) and (c2), the
 * handlers of (b) and (c) sent modern requests (the `_meta` envelope and the `Mcp-*` headers), which
 * take their modern leg.
 *
 * Why beside `bench:mcp`: over HTTP each server is its own process and the machine's speed drifts between
 * them, so its ratios move by a tenth from run to run even pinned. Here every variant runs in the same
 * process in short alternating rounds (500 calls, 10 concurrent sessions, forward then backward), and the
 * median of per-round ratios repeats within a few hundredths, which is what attributing a few microseconds
 * to one middleware needs. What it leaves out is Deno's HTTP server, the same for every variant.
 *
 * Each call's answer is read whole and must hold the echoed text, or the run stops. "vs (a)" is against
 * the bare SDK on 2025 sessions, "vs (a2)" against the bare SDK v2 on 2026-07-28; "over (b)" is what a
 * variant adds to ours without middleware on its own revision ((b) or (b2)).
 *
 * Usage: `deno run -A bench/mcp_chain_bench.ts [--rounds 30] [--calls 500] [--revision 2025|2026|both]
 * [--only b,c,audit,...]` (by default (a), (b), (c), (a2), (b2), (c2); `--only` adds each named
 * variant's bare SDK)
 *
 * @module
 */

import { cpuUsage } from "node:process";
import { parseArgs } from "node:util";
import { modernBody, modernHeaders } from "./_mcp_modern_client.ts";
import { parseRevision } from "./_mcp_variants.ts";
import { sdk2Handler } from "./_mcp_sdk2.ts";
import { fmt, median, renderGrid } from "./_report.ts";
import { API_KEY, FULL_MIDDLEWARE, MCP_PATH, oursHandler, sdkHandler, TOOL_NAME } from "./mcp_server.ts";

type Handler = (request: Request) => Response | Promise<Response>;

/**
 * A variant: its key, the middleware list of `oursHandler` (`undefined` for a bare SDK) and the revision
 * its requests speak (2025 sessions unless `modern`).
 */
interface Variant {
  key: string;
  about: string;
  middleware?: string;
  modern?: boolean;
}

/** A variant ready to call: its handler, its lanes' headers and its CPU per call in each round. */
type Live = Variant & { modern: boolean; handler: Handler; open: Record<string, string>[]; cpu: number[] };

const VARIANTS: ReadonlyArray<Variant> = [
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
  { key: "a2", about: "2026-07-28: bare SDK v2", modern: true },
  { key: "b2", about: "2026-07-28: ours, no middleware", middleware: "", modern: true },
  { key: "c2", about: "2026-07-28: ours + (c)'s middleware", middleware: FULL_MIDDLEWARE, modern: true },
];
/** The variants run by default. */
const DEFAULT_KEYS = ["a", "b", "c", "a2", "b2", "c2"];

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
    body: typeof body === "string" ? body : JSON.stringify(body),
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

/** Ten lanes of modern requests: no session, the same headers on each. */
function modernLanes(): Record<string, string>[] {
  return Array.from({ length: 10 }, () => modernHeaders("tools/call", TOOL_NAME));
}

const MODERN_CALL = modernBody("tools/call", { name: TOOL_NAME, arguments: { text: "hi" } });

/** The `tools/call` body with `id`, with the envelope when `modern`. */
function callBody(id: number, modern: boolean): unknown {
  if (modern) return MODERN_CALL(id);
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name: TOOL_NAME, arguments: { text: "hi" } } };
}

/**
 * CPU microseconds per call for `calls` calls spread over the lanes (a session's headers each, or a
 * modern request's), each answer checked.
 */
async function round(
  handler: Handler,
  open: Record<string, string>[],
  calls: number,
  modern: boolean,
): Promise<number> {
  const before = cpuUsage();
  const each = Math.ceil(calls / open.length);
  await Promise.all(open.map(async (lane) => {
    for (let i = 0; i < each; i++) {
      const { answer, text } = await post(handler, callBody(i + 2, modern), lane);
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
      revision: { type: "string" },
    },
  });
  const rounds = Number(values.rounds);
  const calls = Number(values.calls);
  const revision = parseRevision(values.revision);
  const keys = new Set(values.only?.split(",") ?? DEFAULT_KEYS);
  for (const key of [...keys]) {
    const variant = VARIANTS.find((v) => v.key === key);
    if (variant === undefined) throw new Error(`--only: unknown variant '${key}'`);
    keys.add(variant.modern ? "a2" : "a");
  }
  const chosen = VARIANTS.filter((v) =>
    keys.has(v.key) && (revision === "both" || (revision === "2026") === (v.modern ?? false))
  );
  const dir = await Deno.makeTempDir({ prefix: "agentry-chain-bench-" });
  const started = performance.now();
  const servers: Live[] = [];
  for (const variant of chosen) {
    const names = variant.middleware?.split(",").filter(Boolean);
    const modern = variant.modern ?? false;
    const handler: Handler = names === undefined
      ? modern ? sdk2Handler().fetch : sdkHandler()
      : oursHandler(names, `${dir}/${variant.key}.jsonl`);
    const open = modern ? modernLanes() : await sessions(handler);
    servers.push({ ...variant, modern, handler, open, cpu: [] });
  }
  const run = (s: Live) => round(s.handler, s.open, calls, s.modern);
  for (let warm = 0; warm < 2; warm++) for (const s of servers) await run(s);
  for (let r = 0; r < rounds; r++) {
    for (const s of r % 2 === 0 ? servers : [...servers].reverse()) s.cpu.push(await run(s));
  }
  const cpuOf = (key: string) => servers.find((s) => s.key === key)?.cpu;
  const ratio = (s: Live, base: number[] | undefined, skip: string[]) =>
    base && !skip.includes(s.key) ? fmt(median(s.cpu.map((v, i) => v / base[i])), 2) : "";
  const rows = servers.map((s) => {
    const b = cpuOf(s.modern ? "b2" : "b");
    const own = ["a", "b", "a2", "b2"].includes(s.key);
    return [
      s.key,
      fmt(median(s.cpu), 1),
      ratio(s, cpuOf("a"), ["a"]),
      ratio(s, cpuOf("a2"), ["a2"]),
      b && !own ? fmt(median(s.cpu.map((v, i) => v - b[i])), 1) : "",
      s.about,
    ];
  });
  console.log(
    `\nMCP tools/call in one process (no sockets), ${rounds} rounds x ${calls} calls, 10 lanes (2025: one ` +
      `session each; 2026-07-28: no session), medians\n`,
  );
  console.log(
    renderGrid(rows, ["variant", "CPU/call (us)", "vs (a)", "vs (a2)", "over (b)/(b2) (us)", "what"]),
  );
  console.log(`\ndeno ${Deno.version.deno}, ${Math.round((performance.now() - started) / 1000)} s total`);
  const results = Object.fromEntries(servers.map((s) => [s.key, { cpuPerCallUs: s.cpu, about: s.about }]));
  await Deno.writeTextFile(
    new URL("./results/mcp_chain.json", import.meta.url),
    JSON.stringify({ rounds, calls, deno: Deno.version.deno, results }, null, 2) + "\n",
  );
  await Deno.remove(dir, { recursive: true });
  Deno.exit(0);
}

/**
 * Diagnosis for the agent-run benchmark's tool step: the client CPU of one MCP `tools/call`, made one at a
 * time against `bench/run_model_server.ts`'s MCP server, (raw) as the bare loop makes it (a `fetch` POST,
 * its SSE answer read with `text()`) and (ours) through `McpConnections.call` (the MCP SDK client over the
 * agent's streamable HTTP transport), in alternating batches. `--signal fresh|none|run` passes a new
 * `AbortSignal` per call, none, or a run-like `AbortSignal.any([stop, AbortSignal.timeout(600 s)])`.
 *
 * Usage: `deno run --allow-all bench/_run_mcp_diagnose.ts [--calls 3000] [--signal fresh|none|run]`
 *
 * @module
 */

import process from "node:process";
import { McpConnections } from "../src/agent/mcp/mod.ts";
import { Logger } from "../src/log.ts";
import { callBody, openSession, rpcMessages } from "./_mcp_client.ts";
import { flag } from "./_serve_until_told.ts";
import { ServerProcess } from "./_server_process.ts";
import { MCP_PATH, MCP_SERVER_NAME, MCP_TOOL, TOOL_CALL_NAME } from "./run_model_server.ts";

const CALLS = Number(flag("calls") ?? 3000);
const SIGNAL = flag("signal") ?? "fresh";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

async function main(): Promise<void> {
  const port = freePort();
  const script = new URL("./run_model_server.ts", import.meta.url).pathname;
  await using server = await ServerProcess.spawn(script, ["--mcp-port", `${port}`], { label: "servers" });
  const base = `http://127.0.0.1:${port}`;
  const connections = await McpConnections.connect({ [MCP_SERVER_NAME]: { url: `${base}${MCP_PATH}` } }, {
    logger: new Logger("agentry", { level: "error" }),
  });
  const session = await openSession({ baseUrl: base, path: MCP_PATH, headers: {} });
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": session.id,
    "mcp-protocol-version": session.protocolVersion,
  };
  let id = 10;
  const raw = async () => {
    const body = callBody(id++, MCP_TOOL, { id: 42 });
    const answer = await fetch(`${base}${MCP_PATH}`, { method: "POST", headers, body });
    return rpcMessages(answer.headers.get("content-type") ?? "", await answer.text());
  };
  const stop = new AbortController();
  const signal = () =>
    SIGNAL === "none"
      ? undefined
      : SIGNAL === "run"
      ? AbortSignal.any([stop.signal, AbortSignal.timeout(600_000)])
      : new AbortController().signal;
  const ours = () => connections.call(TOOL_CALL_NAME, { id: 42 }, { signal: signal() });
  const batches: Array<[string, () => Promise<unknown>]> = [["raw", raw], ["ours", ours], ["ours", ours], [
    "raw",
    raw,
  ]];
  for (const [name, call] of batches) {
    for (let i = 0; i < CALLS / 10; i++) await call();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await call();
    const cpu1 = process.cpuUsage();
    const cpuUs = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / CALLS;
    const wallUs = ((performance.now() - t0) * 1000) / CALLS;
    console.log(`${name.padEnd(4)}  CPU ${cpuUs.toFixed(0)} us/call  wall ${wallUs.toFixed(0)} us/call`);
  }
  await connections.close();
  await server.stop();
}

if (import.meta.main) {
  await main();
  Deno.exit(0); // see run_bench.ts: the SDK's abort listeners keep run-like signals' timers alive
}

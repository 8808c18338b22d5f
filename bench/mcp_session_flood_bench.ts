/**
 * What a flood of `initialize` requests that never complete initialisation costs the MCP HTTP handler
 * (issue 14 item 10): one client (source 127.0.0.2) sends 10,000 of them over 16 keep-alive connections, twice;
 * we read the server's RSS before and after each round (from `/proc`), count the answers, and check that another
 * client (127.0.0.1) can still initialise. A: the default limits. B: `maxSessionsPerClient: 10000`, so
 * one client may hold the whole table, as before the per-client cap. Each side runs in its own process.
 *
 * Usage: `deno run --allow-all bench/mcp_session_flood_bench.ts [--count 10000]`
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { floodInitialize } from "../src/mcp/transports/_test_flood.ts";
import { INITIALIZE } from "../src/mcp/transports/_test_serve.ts";
import { flag } from "./_serve_until_told.ts";
import { ServerProcess } from "./_server_process.ts";

const SERVER = fileURLToPath(new URL("./mcp_flood_server.ts", import.meta.url));
const count = Number(flag("count") ?? 10_000);
const MB = 1024 * 1024;

async function otherClient(url: string): Promise<number> {
  const response = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(INITIALIZE),
  });
  await response.body?.cancel();
  return response.status;
}

async function side(label: string, options: Record<string, unknown>): Promise<void> {
  await using server = await ServerProcess.spawn(SERVER, ["--options", JSON.stringify(options)], { label });
  const port = Number(new URL(server.url).port);
  await floodInitialize(port, { count: 50, localAddress: "127.0.0.9" }); // warm up: code loaded, JIT
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const readings = [await server.memory()];
  const answers: string[] = [];
  let seconds = 0;
  for (let round = 0; round < 2; round++) {
    const flood = await floodInitialize(port, { count, localAddress: "127.0.0.2" });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    readings.push(await server.memory());
    answers.push(JSON.stringify(Object.fromEntries(flood.statuses)));
    seconds += flood.elapsedMs / 1000;
  }
  const other = await otherClient(server.url);
  const rss = readings.map((reading) => (reading.rss / MB).toFixed(0)).join(" -> ");
  console.log(
    `${label}: 2 x ${count} initialize from one client in ${seconds.toFixed(1)} s, answers ${
      answers.join(", ")
    }; ` +
      `RSS ${rss} MB (peak ${(readings[2].peak / MB).toFixed(0)} MB); another client's initialize: ${other}`,
  );
}

await side("A default limits", {});
await side("B maxSessionsPerClient 10000", { maxSessionsPerClient: 10_000 });

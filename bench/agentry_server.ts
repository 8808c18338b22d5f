/**
 * Benchmark server A: an Agentry runtime behind `ControlServer` on 127.0.0.1 port 0, built like
 * `agentry runtime start` builds it (file process store in the data dir, bearer token), with the log
 * level at "warning". Prints `{"url", "pid"}` on stdout once listening; exits on SIGTERM or when stdin
 * closes.
 *
 * Usage: `deno run --allow-all bench/agentry_server.ts --data-dir DIR [--token TOKEN] [--no-store]`
 *
 * Without `--token` the API checks no token; `--no-store` keeps deployments in memory only. Both exist
 * for the benchmark's `--diagnose` runs, which show what the token check and the file store cost.
 *
 * @module
 */

import { join } from "node:path";
import { AgentRuntime, ControlServer, FileProcessStore, Logger } from "../mod.ts";
import { flag, serveUntilTold } from "./_serve_until_told.ts";

const dataDir = flag("data-dir");
const token = flag("token");
if (!dataDir) throw new Error("usage: agentry_server.ts --data-dir DIR [--token TOKEN] [--no-store]");
const store = Deno.args.includes("--no-store") ? undefined : new FileProcessStore(join(dataDir, "processes"));

await Deno.mkdir(dataDir, { recursive: true, mode: 0o700 });
const logger = new Logger("agentry", { level: "warning" });
const runtime = new AgentRuntime({ dataDir, logger, store });
const server = new ControlServer(runtime, { host: "127.0.0.1", port: 0, authToken: token, dataDir });
await server.start();
await serveUntilTold(server.url, async () => {
  await server.stop();
  await runtime.close();
});

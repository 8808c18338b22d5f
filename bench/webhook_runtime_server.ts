/**
 * End-to-end webhook benchmark server: an `AgentRuntime` with the triggers part and an invoker that only
 * counts (resolves at once), with one process deployed and started: a webhook trigger on
 * `127.0.0.1:<port>/hook` and `concurrency` workers. A control endpoint on its own port (127.0.0.1,
 * port 0) answers `GET /` with `{invoked, runs, triggers}`: the invoker count and the process's run and
 * trigger status. Prints `{"url", "pid"}` (the control URL) on stdout once ready; exits on SIGTERM or
 * when stdin closes.
 *
 * Usage: `deno run --allow-all bench/webhook_runtime_server.ts --data-dir DIR --port P --concurrency N`
 *
 * @module
 */

import { AgentRuntime, type Invoker, Logger, parseProcessConfig } from "../mod.ts";
import { createTriggersPart } from "../src/triggers/mod.ts";
import { flag, serveUntilTold } from "./_serve_until_told.ts";
import { HOOK_PATH } from "./webhook_server.ts";

/** What the control endpoint answers. */
export interface RuntimeCounts {
  /** Runs the invoker was called for since start. */
  invoked: number;
  /** The process's `runs` status (queue, workers, succeeded, dead letters...). */
  runs: Record<string, unknown>;
  /** The triggers part status (`{count, triggers: [{events, queue_size, dropped}]}`). */
  triggers: { triggers: Array<{ events: number; queue_size: number; dropped: number }> };
}

if (import.meta.main) {
  const dataDir = flag("data-dir");
  const port = Number(flag("port"));
  const concurrency = Number(flag("concurrency") ?? 1);
  if (!dataDir || !port) throw new Error("usage: --data-dir DIR --port P [--concurrency N]");
  let invoked = 0;
  const invoker: Invoker = () => {
    invoked++;
    return Promise.resolve();
  };
  const logger = new Logger("agentry", { level: "warning" });
  const runtime = new AgentRuntime({ dataDir, logger, parts: [createTriggersPart()], invoker });
  const parsed = parseProcessConfig({
    concurrency,
    triggers: [{ type: "webhook", webhook_path: HOOK_PATH, webhook_port: port, webhook_host: "127.0.0.1" }],
  });
  if (!parsed.ok) throw new Error(`bad config: ${JSON.stringify(parsed.issues)}`);
  const process = await runtime.deploy("bench", parsed.config, { start: true });
  const listening = Promise.withResolvers<string>();
  const control = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: (address) => listening.resolve(`http://${address.hostname}:${address.port}`),
  }, () => {
    const status = process.status();
    return Response.json({ invoked, runs: status.runs, triggers: status.triggers });
  });
  await serveUntilTold(await listening.promise, async () => {
    await control.shutdown();
    await runtime.close();
  });
}

/**
 * Agentry: a runtime for LLM agents as long-lived services, with a JSON control API.
 *
 * Deploy named agent processes into an {@linkcode AgentRuntime}, then manage them over HTTP with
 * {@linkcode ControlServer} (or in-process with {@linkcode createControlApi}) and the typed
 * {@linkcode RuntimeClient}.
 *
 * @example
 * ```ts
 * import { AgentRuntime, ControlServer, RuntimeClient } from "@agentry/agentry";
 *
 * const runtime = new AgentRuntime({ dataDir: await Deno.makeTempDir() });
 * await using server = new ControlServer(runtime, { port: 0, authToken: "a-long-random-token" });
 * await server.start();
 *
 * await using client = new RuntimeClient({ baseUrl: server.url, token: "a-long-random-token" });
 * await client.deploy("reporter", { instructions: "Summarise the day." }, { start: true });
 * console.log((await client.getProcess("reporter")).state); // "running"
 * await runtime.close();
 * ```
 *
 * @module
 */

export * from "./src/runtime/mod.ts";
export * from "./src/api/mod.ts";
export * from "./src/journal/mod.ts";
export * from "./src/triggers/mod.ts";
export {
  formatLogLine,
  LOG_LEVELS,
  Logger,
  type LoggerOptions,
  type LogLevel,
  type LogRecord,
  type LogSink,
  memorySink,
} from "./src/log.ts";
export { VERSION } from "./src/version.ts";

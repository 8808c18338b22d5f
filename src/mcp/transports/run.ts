/**
 * Running a {@linkcode ToolServer}: over stdio ({@linkcode serveStdio}) or on a socket through
 * `serveHandler` (`node:http`, head and keep-alive timeouts) ({@linkcode run}). Both run the server's
 * startup hooks before serving and its shutdown hooks after.
 *
 * @module
 */

import process from "node:process";
import { Readable, Writable } from "node:stream";
import { describeError } from "../../_util/errors.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { isLoopbackHost } from "../../_util/net.ts";
import { type Served, serveHandler } from "../../_util/serve.ts";
import { isAuthMiddleware } from "../auth/auth_middleware.ts";
import type { ToolServer } from "../tool_server.ts";
import { HostPolicy } from "./_host_policy.ts";
import { json } from "./_http.ts";
import { connectStdio } from "./_stdio_eras.ts";
import { CorsPolicy } from "./cors_policy.ts";
import { FETCH_HANDLER_KEYS, type FetchHandlerOptions, toFetchHandler } from "./to_fetch_handler.ts";

/** Options for {@linkcode serveStdio}. */
export interface StdioOptions {
  /** Where protocol messages come from. @default the process's stdin */
  stdin?: ReadableStream<Uint8Array>;
  /** Where protocol messages go (nothing else is written there). @default the process's stdout */
  stdout?: WritableStream<Uint8Array>;
}

const STDIO_KEYS = { stdin: true, stdout: true } satisfies Record<keyof StdioOptions, true>;

/** A stdio server being served. */
export interface StdioHandle {
  /** Settles once stdin has ended (or {@linkcode close} ran) and the shutdown hooks have run. */
  closed: Promise<void>;
  /** Stops serving; resolves like {@linkcode closed}. Shutdown-hook failures are logged, not thrown. */
  close(): Promise<void>;
}

/** A server being served by {@linkcode run}. */
export interface ServeHandle {
  /** The MCP endpoint, for the HTTP transports. */
  url?: string;
  /** Settles once serving has stopped and the shutdown hooks have run (failures are logged). */
  finished: Promise<void>;
  /** Stops serving; resolves like {@linkcode finished}. */
  close(): Promise<void>;
}

/** Options for {@linkcode run}. */
export interface RunOptions extends Omit<FetchHandlerOptions, "transport"> {
  /** Transport. @default "stdio" */
  transport?: "stdio" | "http" | "sse";
  /**
   * Address to bind (HTTP transports). A non-loopback address is accepted as a Host name; for a
   * wildcard bind (`0.0.0.0`, `::`) list the public names in `allowedHosts`. @default "127.0.0.1"
   */
  host?: string;
  /** Port to bind; 0 picks a free one. @default 8080 */
  port?: number;
  /** Aborting stops serving: sessions closed, socket shut, shutdown hooks run. */
  signal?: AbortSignal;
  /** Called once the socket is bound. @default logs the address */
  onListen?: (address: Deno.NetAddr) => void;
  /**
   * Time to receive a request head (line and headers) before 408 and closing the connection (HTTP
   * transports). @default 10000
   */
  headTimeoutMs?: number;
}

const RUN_KEYS = {
  ...FETCH_HANDLER_KEYS,
  host: true,
  port: true,
  signal: true,
  onListen: true,
  headTimeoutMs: true,
} satisfies Record<keyof RunOptions, true>;
const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

/** Time answers in flight get when an HTTP server stops, before every connection is cut. */
const STOP_GRACE_MS = 5_000;

/** Wraps `stop` so it runs once; calls made while it runs (even re-entrant ones) share its promise. */
function once(stop: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => running ??= Promise.resolve().then(stop);
}

async function shutdownHooks(server: ToolServer): Promise<void> {
  try {
    await server.shutdown();
  } catch (error) {
    server.logger.error("shutdown hook failed", { error: describeError(error) });
  }
}

function whenAborted(signal: AbortSignal | undefined, stop: () => Promise<void>): () => void {
  if (!signal) return () => undefined;
  const onAbort = () => void stop();
  if (signal.aborted) queueMicrotask(onAbort);
  else signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/**
 * Serves `server` over stdio: startup hooks, then one connection until stdin ends (or `close()`), then
 * shutdown hooks. Only protocol messages are written to stdout (logs go to stderr). The connection's
 * first message picks the protocol revision: `initialize` opens a 2025-era session, a 2026-07-28
 * request (`server/discover`, or any request whose `_meta` names the protocol version) is served
 * statelessly, one request at a time.
 */
export async function serveStdio(server: ToolServer, options: StdioOptions = {}): Promise<StdioHandle> {
  checkOptionKeys(options, { owner: "serveStdio", keys: STDIO_KEYS });
  await server.startup();
  const stdin: Readable = options.stdin ? Readable.fromWeb(options.stdin) : process.stdin;
  const stdout: Writable = options.stdout ? Writable.fromWeb(options.stdout) : process.stdout;
  const connection = await connectStdio(server, stdin, stdout);
  const closed = Promise.withResolvers<void>();
  const close = once(async () => {
    stdin.off("end", onEnd);
    await connection.close();
    if (options.stdin) stdin.destroy();
    if (options.stdout) await new Promise<void>((resolve) => stdout.end(resolve));
    await shutdownHooks(server);
    closed.resolve();
  });
  const onEnd = () => void close();
  stdin.on("end", onEnd);
  connection.onclose = onEnd;
  return { closed: closed.promise, close };
}

function urlHost(hostname: string): string {
  return hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
}

/**
 * Runs `server` until `signal` aborts or `close()` is called. With `"stdio"` it is
 * {@linkcode serveStdio}; with `"http"` or `"sse"`: startup hooks, then `serveHandler`
 * (`node:http`, head and keep-alive timeouts) with {@linkcode toFetchHandler}; on stop, sessions are closed, the socket is shut and shutdown hooks run.
 * Resolves once the socket is bound. Logs the Host/Origin policy, and a warning when a non-loopback
 * address is bound without an auth middleware.
 *
 * @example
 * ```ts ignore
 * import { createToolServer, run } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "maths" });
 * const served = await run(server, { transport: "http", port: 8080, signal: AbortSignal.timeout(60_000) });
 * await served.finished;
 * ```
 */
export async function run(server: ToolServer, options: RunOptions = {}): Promise<ServeHandle> {
  checkOptionKeys(options, { owner: "run", keys: RUN_KEYS });
  const {
    transport = "stdio",
    host = "127.0.0.1",
    port = 8080,
    signal,
    onListen,
    headTimeoutMs,
    ...handlerOptions
  } = options;
  if (transport === "stdio") {
    const stdio = await serveStdio(server);
    whenAborted(signal, stdio.close);
    return { finished: stdio.closed, close: stdio.close };
  }
  if (transport !== "http" && transport !== "sse") {
    throw new TypeError('run: transport must be "stdio", "http" or "sse"');
  }
  if (typeof host !== "string" || host === "") throw new TypeError("run: host must be a non-empty string");
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError("run: port must be 0..65535");
  if (headTimeoutMs !== undefined && !(Number.isInteger(headTimeoutMs) && headTimeoutMs > 0)) {
    throw new TypeError("run: headTimeoutMs must be an integer > 0");
  }
  const allowedHosts = [...(handlerOptions.allowedHosts ?? [])];
  if (!isLoopbackHost(host) && !WILDCARDS.has(host)) allowedHosts.push(urlHost(host));
  const handler = toFetchHandler(server, { ...handlerOptions, transport, allowedHosts });
  try {
    await server.startup();
  } catch (error) {
    await handler.close();
    throw error;
  }
  const corsOrigins = handlerOptions.cors ? new CorsPolicy(handlerOptions.cors).origins : [];
  const policy = new HostPolicy(allowedHosts, [...(handlerOptions.allowedOrigins ?? []), ...corsOrigins])
    .describe();
  server.logger.info("Host/Origin validation", policy);
  if (!isLoopbackHost(host) && !server.middleware.some((m) => isAuthMiddleware(m))) {
    server.logger.warning(
      "serving on a non-loopback address without an auth middleware: anyone who can reach it can call every tool",
      { host },
    );
  }
  let http: Served;
  try {
    http = await serveHandler({
      hostname: host,
      port,
      handler: (request, remoteAddr) => handler(request, { remoteAddr }),
      onError: (error) => {
        server.logger.error("HTTP request failed", { error: describeError(error) });
        return json(500, { error: "internal error" });
      },
      limits: { headTimeoutMs },
    });
  } catch (error) {
    await handler.close();
    await shutdownHooks(server);
    throw error;
  }
  const address = http.addr;
  const url = `http://${urlHost(address.hostname)}:${address.port}${
    transport === "sse" ? "/sse" : handlerOptions.path ?? "/mcp"
  }`;
  if (onListen) onListen(address);
  else server.logger.info("MCP server listening", { url, transport });
  const finished = Promise.withResolvers<void>();
  const close = once(async () => {
    forget();
    await handler.close();
    await http.close(STOP_GRACE_MS); // bounded, whatever clients do (issue 14)
    await shutdownHooks(server);
    finished.resolve();
  });
  const forget = whenAborted(signal, close);
  return { url, finished: finished.promise, close };
}

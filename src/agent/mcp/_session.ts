/**
 * Opening one MCP client session for a server entry: the transport for its config (with the
 * streamable-HTTP-to-SSE fallback), the revision negotiated (`server/discover`, else `initialize`),
 * connect within a deadline, and a close that leaves nothing open.
 *
 * @module
 */

import {
  Client,
  type ClientOptions,
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import type { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { HttpServerConfig, ServerConfig, ServerProtocolVersion } from "../../runtime/mod.ts";
import { serverTransport } from "../../runtime/mod.ts";
import type { Logger } from "../../log.ts";
import { type TrackedFetch, trackedFetch } from "./_tracked_fetch.ts";

/** The transport a session actually uses. */
export type SessionTransport = "streamable-http" | "sse" | "stdio";

/** A connected client and how to close it. */
export interface Session {
  /** The SDK client, connected (initialized, or discovered on 2026-07-28). */
  client: Client;
  /** The transport in use (after any fallback). */
  transport: SessionTransport;
  /** The protocol revision negotiated, e.g. `2026-07-28` or `2025-11-25`. */
  protocolVersion: string;
  /** `modern` (2026-07-28 and later: stateless, `server/discover`) or `legacy` (an `initialize` session). */
  era: "modern" | "legacy";
  /** Ends the session (a bounded DELETE for a streamable HTTP session), closes the client and every stream. */
  close(): Promise<void>;
}

/** What {@linkcode openSession} needs. */
export interface OpenSessionOptions {
  /** Logger for the server's stderr (stdio, at debug) and fallback notes. */
  logger: Logger;
  /** Bound on transport start plus negotiation (probe and initialize), in ms. */
  timeoutMs: number;
  /** Sent as `clientInfo` (in initialize, or in every request's `_meta` on 2026-07-28). */
  clientInfo: { name: string; version: string };
  /** Aborting gives up the connect (it rejects with the reason, the client closed). */
  signal?: AbortSignal;
  /** Called before connect, to add handlers (notifications, onclose, onerror) to the client. */
  prepare(client: Client): void;
}

/** The connect took longer than its deadline. */
export class ConnectTimeout extends Error {
  /** A timeout after `ms` milliseconds. */
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "ConnectTimeout";
  }
}

const TERMINATE_MS = 1_000;
const MAX_PAGES = 100;

function httpHeaders(config: HttpServerConfig): Record<string, string> {
  const headers: Record<string, string> = { ...config.headers };
  if (config.bearer_token !== undefined) headers["Authorization"] = `Bearer ${config.bearer_token}`;
  if (config.api_key !== undefined) headers["x-api-key"] = config.api_key;
  return headers;
}

/**
 * Resolves like `promise`, but rejects with {@linkcode ConnectTimeout} after `ms`, or with the reason
 * when `signal` aborts (the caller then closes what `promise` was opening).
 */
async function within<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectTimeout(ms)), ms);
    onAbort = () => reject(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    signal?.throwIfAborted();
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort!);
  }
}

/**
 * The client's negotiation for `protocol_version`: "auto" probes `server/discover` (2026-07-28) and
 * falls back to the `initialize` handshake of a 2025-era server; a pin to 2026-07-28 has no fallback;
 * "2025-11-25" (and the sse transport, which has no 2026 form) opens an `initialize` session at once.
 */
function negotiation(
  wanted: ServerProtocolVersion,
  kind: SessionTransport,
  timeoutMs: number,
): ClientOptions {
  if (wanted === "2025-11-25" || kind === "sse") return { versionNegotiation: { mode: "legacy" } };
  const mode = wanted === "auto" ? "auto" : { pin: wanted };
  return { versionNegotiation: { mode, probe: { timeoutMs } } };
}

async function connect(
  transport: Transport,
  kind: SessionTransport,
  options: OpenSessionOptions & { wanted: ServerProtocolVersion; cleanup?: () => Promise<void> },
): Promise<Session> {
  // No capabilities: an agent has no human to answer elicitation and no sampling to offer, so servers
  // that need either refuse with their own error instead of waiting.
  const client = new Client(options.clientInfo, {
    capabilities: {},
    listMaxPages: MAX_PAGES,
    ...negotiation(options.wanted, kind, options.timeoutMs),
  });
  options.prepare(client);
  const close = async () => {
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
      await within(transport.terminateSession(), TERMINATE_MS).catch(() => {});
    }
    await client.close().catch(() => {});
    await options.cleanup?.();
  };
  try {
    await within(
      client.connect(transport, { timeout: options.timeoutMs }),
      options.timeoutMs,
      options.signal,
    );
  } catch (error) {
    await client.close().catch(() => {});
    await options.cleanup?.();
    throw error;
  }
  const era = client.getProtocolEra() ?? "legacy";
  const protocolVersion = client.getNegotiatedProtocolVersion() ?? "unknown";
  return { client, transport: kind, protocolVersion, era, close };
}

function isOldServerAnswer(error: unknown): boolean {
  return error instanceof SdkHttpError && (error.status === 404 || error.status === 405);
}

async function openHttp(config: HttpServerConfig, options: OpenSessionOptions): Promise<Session> {
  const url = new URL(config.url);
  const wanted = config.protocol_version ?? "auto";
  const requestInit = { headers: httpHeaders(config) };
  const sse = async () => {
    const fetcher: TrackedFetch = trackedFetch();
    const transport = new SSEClientTransport(url, { requestInit, fetch: fetcher.fetch });
    return await connect(transport, "sse", { ...options, wanted, cleanup: fetcher.close });
  };
  if (serverTransport(config) === "sse") return await sse();
  const fetcher = trackedFetch();
  const transport = new StreamableHTTPClientTransport(url, { requestInit, fetch: fetcher.fetch });
  try {
    return await connect(transport, "streamable-http", { ...options, wanted, cleanup: fetcher.close });
  } catch (error) {
    if (!isOldServerAnswer(error) || wanted === "2026-07-28") throw error;
    options.logger.info("streamable HTTP refused; trying the SSE transport", {
      status: (error as SdkHttpError).status,
    });
    return await sse();
  }
}

function logStderr(transport: StdioClientTransport, logger: Logger): void {
  let pending = "";
  transport.stderr?.on("data", (chunk: Uint8Array | string) => {
    pending += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    const lines = pending.split("\n");
    pending = lines.pop()!.slice(-2_000);
    for (const line of lines) {
      if (line.trim() !== "") logger.debug("server stderr", { line: line.slice(0, 500) });
    }
  });
}

/** Connects a new client to `config`; rejects (with everything it opened closed) when that fails. */
export async function openSession(config: ServerConfig, options: OpenSessionOptions): Promise<Session> {
  if (config.url !== undefined) return await openHttp(config, options);
  // Loaded only for stdio servers: the module reads host variables (OSTYPE, PATH) as it loads.
  const stdio = await import("@modelcontextprotocol/client/stdio") as {
    StdioClientTransport: typeof StdioClientTransport;
  };
  const transport = new stdio.StdioClientTransport({
    command: config.command,
    args: config.args,
    env: config.env,
    cwd: config.cwd,
    stderr: options.logger.enabled("debug") ? "pipe" : "ignore",
  });
  if (options.logger.enabled("debug")) logStderr(transport, options.logger);
  return await connect(transport, "stdio", { ...options, wanted: config.protocol_version ?? "auto" });
}

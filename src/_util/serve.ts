/**
 * Serving a fetch handler on a socket, with limits against slow and hoarding clients: resolves once
 * bound, with the bound port.
 *
 * `Deno.serve` has no header-read or keep-alive timeout (Deno 2.9: a partial request head is held open
 * for as long as the client trickles bytes), so this serves through `node:http`, whose server enforces
 * `headersTimeout` (answers 408 and closes) and `keepAliveTimeout`, and bridges to the fetch handler.
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { toRequest, writeResponse } from "./_fetch_bridge.ts";

/** Default time to receive a request head (request line and headers), from its first byte: 10 s. */
export const DEFAULT_HEAD_TIMEOUT_MS = 10_000;
/** Default time an idle keep-alive connection stays open after an answer: 5 s. */
export const DEFAULT_IDLE_TIMEOUT_MS = 5_000;
/** Default number of connections one remote address may hold open at once: 256. */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

/** Connection limits of {@linkcode serveHandler}. */
export interface ServeLimits {
  /** Time to receive a request head; then 408 and the connection is closed. @default 10_000 */
  headTimeoutMs?: number;
  /** Time an idle keep-alive connection is kept. @default 5_000 */
  idleTimeoutMs?: number;
  /** Connections one remote address may hold; more are closed at once. @default 256 */
  maxConnectionsPerAddress?: number;
}

/** Options for {@linkcode serveHandler}. */
export interface ServeOptions {
  /** Bind address. */
  hostname: string;
  /** Port; 0 lets the OS choose. */
  port: number;
  /** Answers a request; `remoteAddr` is the client's address. */
  handler: (request: Request, remoteAddr: Deno.NetAddr) => Response | Promise<Response>;
  /** Answers when the handler throws. */
  onError: (error: unknown) => Response | Promise<Response>;
  /** Connection limits. */
  limits?: ServeLimits;
}

/** A bound server and its port. */
export interface Served {
  /** The bound address. */
  addr: Deno.NetAddr;
  /** The bound port. */
  port: number;
  /** Stops accepting, closes idle connections, waits for answers in flight, then closes the rest. */
  shutdown(): Promise<void>;
  /**
   * Like `shutdown`, but bounded: answers in flight get `graceMs`, then every connection is cut (idle ones,
   * and clients still sending a head or a body they declared and never send) and it resolves once the
   * server is down.
   */
  close(graceMs: number): Promise<void>;
  /** Resolves once the server has closed. */
  finished: Promise<void>;
}

/** Binds and serves; rejects when it cannot bind (e.g. `Deno.errors.AddrInUse`). */
export async function serveHandler(options: ServeOptions): Promise<Served> {
  const limits = resolveLimits(options.limits);
  const finished = Promise.withResolvers<void>();
  let closing = false;
  const server = createServer({
    headersTimeout: limits.headTimeoutMs,
    // Bodies have their own deadlines (408 from the handlers); answers may stream for long.
    requestTimeout: 0,
    keepAliveTimeout: limits.idleTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headTimeoutMs / 4))),
  }, (req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.shouldKeepAlive = false;
    answer(req, res, options).catch(() => res.destroy()).finally(() => {
      if (closing) server.closeIdleConnections();
    });
  });
  countConnections(server, limits.maxConnectionsPerAddress);
  server.on("close", () => finished.resolve());
  const listening = Promise.withResolvers<void>();
  const onListenError = (error: Error) => listening.reject(bindError(error));
  server.once("error", onListenError);
  server.listen({ host: options.hostname, port: options.port }, () => listening.resolve());
  await listening.promise;
  server.off("error", onListenError);
  const address = server.address();
  if (address === null || typeof address === "string") throw new TypeError("serveHandler: not a TCP address");
  const shutdown = async () => {
    if (!closing) {
      closing = true;
      server.close();
      server.closeIdleConnections();
    }
    await finished.promise;
  };
  const close = async (graceMs: number) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    try {
      await shutdown();
    } finally {
      clearTimeout(cut);
    }
  };
  return {
    addr: { transport: "tcp", hostname: address.address, port: address.port },
    port: address.port,
    shutdown,
    close,
    finished: finished.promise,
  };
}

function resolveLimits(limits: ServeLimits = {}): Required<ServeLimits> {
  const resolved = {
    headTimeoutMs: limits.headTimeoutMs ?? DEFAULT_HEAD_TIMEOUT_MS,
    idleTimeoutMs: limits.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    maxConnectionsPerAddress: limits.maxConnectionsPerAddress ?? DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`serveHandler: ${name} must be an integer >= 1`);
    }
  }
  return resolved;
}

async function answer(req: IncomingMessage, res: ServerResponse, options: ServeOptions): Promise<void> {
  const aborted = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) aborted.abort(new DOMException("the client went away", "AbortError"));
  });
  const socket = req.socket;
  const request = toRequest(req, { base: `${options.hostname}:${socket.localPort}`, signal: aborted.signal });
  if (!request) {
    res.shouldKeepAlive = false;
    await writeResponse(res, new Response("bad request", { status: 400 }));
    return;
  }
  const remoteAddr: Deno.NetAddr = {
    transport: "tcp",
    hostname: plainAddress(socket.remoteAddress ?? ""),
    port: socket.remotePort ?? 0,
  };
  let response: Response;
  try {
    response = await options.handler(request, remoteAddr);
  } catch (error) {
    try {
      response = await options.onError(error);
    } catch {
      response = new Response("internal error", { status: 500 });
    }
  }
  await writeResponse(res, response);
}

/** `::ffff:127.0.0.1` (an IPv4 client of a dual-stack socket) as `127.0.0.1`. */
function plainAddress(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

function countConnections(server: ReturnType<typeof createServer>, max: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const key = plainAddress(socket.remoteAddress ?? "");
    const count = (open.get(key) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

function bindError(error: Error): Error {
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE") return new Deno.errors.AddrInUse(error.message, { cause: error });
  if (code === "EADDRNOTAVAIL") return new Deno.errors.AddrNotAvailable(error.message, { cause: error });
  if (code === "EACCES") return new Deno.errors.PermissionDenied(error.message, { cause: error });
  return error;
}

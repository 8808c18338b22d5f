/**
 * The guarded engine of {@linkcode serveHandler}: `node:http`, whose server enforces a request-head timeout
 * (408 and close), an idle keep-alive timeout and here a cap on connections per address, bridged to the
 * fetch handler.
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { toRequest, writeResponse } from "./_fetch_bridge.ts";
import type { Served, ServeLimits, ServeOptions } from "./serve.ts";

/** Serves through `node:http` with `limits` (resolved). */
export async function serveGuarded(options: ServeOptions, limits: Required<ServeLimits>): Promise<Served> {
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

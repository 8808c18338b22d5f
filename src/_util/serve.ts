/**
 * Serving a fetch handler on a socket: resolves once bound, with the bound port; stops gracefully or within
 * a bounded time whatever clients do.
 *
 * Two engines. `Deno.serve` is the fastest, but has no request-head or keep-alive timeout (Deno 2.9: a
 * partial head is held open for as long as the client trickles bytes, so slow clients can pile up
 * connections: "slowloris"). The guarded engine, `node:http` bridged to the handler, enforces a head
 * timeout (408 and close), an idle keep-alive timeout and a cap on connections per address, at several
 * times the CPU per request. A server reachable from other machines (a bind address that is not loopback)
 * is guarded; a loopback bind uses `Deno.serve` unless `limits` asks for a guard (only local processes, or
 * a local reverse proxy with its own timeouts, can reach it).
 *
 * @module
 */

import { isLoopbackHost } from "./net.ts";
import { serveFast } from "./_serve_deno.ts";

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
  /**
   * Connection limits. A limit set here guards the server whatever its address; without any, only a server
   * on a non-loopback address is guarded (with the defaults).
   */
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
  const asked = Object.values(options.limits ?? {}).some((value) => value !== undefined);
  if (!asked && isLoopbackHost(options.hostname)) return serveFast(options);
  // Loaded only when needed: `node:http` brings Deno's Node compatibility layer (about 20 MB of memory).
  const { serveGuarded } = await import("./_serve_node.ts");
  return serveGuarded(options, limits);
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

/**
 * Serving a fetch handler on a socket: resolves once bound, with the bound port.
 *
 * @module
 */

/** Options for {@linkcode serveHandler}. */
export interface ServeOptions {
  /** Bind address. */
  hostname: string;
  /** Port; 0 lets the OS choose. */
  port: number;
  /** Answers a request; `remoteAddr` is the client's address. */
  handler: (request: Request, remoteAddr: string) => Response | Promise<Response>;
  /** Answers when the handler throws. */
  onError: () => Response;
}

/** A bound server and its port. */
export interface Served {
  /** The Deno server (shutdown, finished). */
  server: Deno.HttpServer<Deno.NetAddr>;
  /** The bound port. */
  port: number;
}

/** Binds and serves; rejects when it cannot bind (e.g. `Deno.errors.AddrInUse`). */
export async function serveHandler(options: ServeOptions): Promise<Served> {
  const listening = Promise.withResolvers<number>();
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    onListen: (address) => listening.resolve(address.port),
    onError: options.onError,
  }, (request, info) => options.handler(request, info.remoteAddr.hostname));
  return { server, port: await listening.promise };
}

/**
 * Serving a fetch handler on a socket: resolves once bound, with the bound port, and can close within a
 * bounded time whatever the clients do.
 *
 * @module
 */

/** Time given to connections to write the answers handed to them before they are cut. */
const FLUSH_MS = 20;

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
  /**
   * Closes within about `graceMs`: waits up to `graceMs` for the answers of requests in flight to be
   * sent (and 20 ms more for the last ones to be written), then cuts every connection (idle ones, and clients still sending a body or headers) and
   * resolves once the server is down. Unlike `server.shutdown()`, which waits for every connection to
   * end (a client that declared a body and never sends it holds it forever). Use one or the other.
   */
  close(graceMs: number): Promise<void>;
}

/** Binds and serves; rejects when it cannot bind (e.g. `Deno.errors.AddrInUse`). */
export async function serveHandler(options: ServeOptions): Promise<Served> {
  const listening = Promise.withResolvers<number>();
  // Aborting `signal` makes Deno cancel every connection at once (shutdown() is graceful and unbounded).
  const cut = new AbortController();
  const answers = new InFlight();
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    signal: cut.signal,
    onListen: (address) => listening.resolve(address.port),
    onError: options.onError,
  }, (request, info) => {
    answers.track(info.completed);
    return options.handler(request, info.remoteAddr.hostname);
  });
  const port = await listening.promise;
  let closing: Promise<void> | undefined;
  const close = (graceMs: number): Promise<void> =>
    closing ??= (async () => {
      await answers.settled(graceMs);
      // `completed` settles when an answer is handed to the connection, not when it is written: let the
      // connections write what they were handed before cutting them.
      await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
      cut.abort();
      await server.finished;
    })();
  return { server, port, close };
}

/** Counts answers not yet sent and waits, up to a time, for none to be left. */
class InFlight {
  #count = 0;
  #idle: (() => void) | undefined;
  #done = () => {
    if (--this.#count === 0) this.#idle?.();
  };

  /** Counts one answer until `completed` settles (sent, or the client went away). */
  track(completed: Promise<void>): void {
    this.#count++;
    completed.then(this.#done, this.#done);
  }

  /** Resolves once no answer is in flight, or after `ms`. */
  async settled(ms: number): Promise<void> {
    if (this.#count === 0) return;
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#idle = resolve;
    const timer = setTimeout(resolve, ms);
    try {
      await promise;
    } finally {
      clearTimeout(timer);
      this.#idle = undefined;
    }
  }
}

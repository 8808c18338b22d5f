/**
 * The fast engine of {@linkcode serveHandler}: `Deno.serve`, for loopback binds. It has no request-head or
 * keep-alive timeout (see serve.ts); `close(graceMs)` still stops it in bounded time by aborting its
 * signal, which cuts every connection at once.
 *
 * @module
 */

import type { Served, ServeOptions } from "./serve.ts";

/** Time given to connections to write the answers handed to them before they are cut. */
const FLUSH_MS = 20;

/** Serves through `Deno.serve`. */
export async function serveFast(options: ServeOptions): Promise<Served> {
  const listening = Promise.withResolvers<Deno.NetAddr>();
  // Aborting `signal` makes Deno cancel every connection at once (shutdown() is graceful and unbounded).
  const cut = new AbortController();
  const answers = new InFlight();
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: options.hostname,
    port: options.port,
    signal: cut.signal,
    onListen: (address) => listening.resolve(address),
    onError: options.onError,
  }, (request, info) => {
    answers.track(info.completed);
    return options.handler(request, info.remoteAddr);
  });
  const addr = await listening.promise;
  let stopping: Promise<void> | undefined;
  return {
    addr,
    port: addr.port,
    shutdown: () => stopping ??= server.shutdown().then(() => server.finished),
    close: (graceMs) =>
      stopping ??= (async () => {
        await answers.settled(graceMs);
        // `completed` settles when an answer is handed to the connection, not when it is written: let the
        // connections write what they were handed before cutting them.
        await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
        cut.abort();
        await server.finished;
      })(),
    finished: server.finished,
  };
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

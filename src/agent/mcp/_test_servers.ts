/**
 * Test helpers: MCP tool servers (our framework) served on 127.0.0.1 that count their open streams and
 * TCP connections and record request headers, and can be stopped and started again on the same port.
 *
 * @module
 */

import v8 from "node:v8";
import vm from "node:vm";
import { z } from "zod";
import { createToolServer, type McpFetchHandler, toFetchHandler, type ToolServer } from "../../mcp/mod.ts";
import { Logger, type LogRecord, memorySink } from "../../log.ts";

/**
 * A tool server with `echo`, `fail` (an isError result) and `slow` (waits `ms`; when the client cancels,
 * it stops and pushes "slow cancelled" on `events`).
 */
export function sampleServer(name = "sample", events: string[] = []): ToolServer {
  return createToolServer({ name })
    .tool("echo", { description: "Echo the text", input: z.object({ text: z.string() }) }, ({ text }) => text)
    .tool("fail", { description: "Always fails" }, () => ({
      content: [{ type: "text", text: "the tool broke" }],
      isError: true,
    }))
    .tool(
      "slow",
      { description: "Answers after ms", input: z.object({ ms: z.number() }) },
      ({ ms }, ctx) =>
        new Promise<string>((resolve) => {
          const timer = setTimeout(() => resolve("done"), ms);
          ctx.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            events.push("slow cancelled");
            resolve("cancelled");
          }, { once: true });
        }),
    );
}

/** A tool server served on a loopback port that can be stopped and started again. */
export class LoopbackServer implements AsyncDisposable {
  /** Headers of every request received, lower-cased names. */
  readonly requests: { method: string; headers: Record<string, string> }[] = [];
  #server: ToolServer;
  #transport: "http" | "sse";
  #handler: McpFetchHandler | undefined;
  #http: Deno.HttpServer | undefined;
  #streams = 0;
  #port = 0;

  /** Serves `server` over `transport` once {@linkcode start} runs. */
  constructor(server: ToolServer, transport: "http" | "sse" = "http") {
    this.#server = server;
    this.#transport = transport;
  }

  /** Serves on `port` (default: the previous one, or a free one). */
  async start(port = this.#port): Promise<this> {
    const handler = toFetchHandler(this.#server, { transport: this.#transport });
    const listening = Promise.withResolvers<number>();
    this.#http = Deno.serve(
      { hostname: "127.0.0.1", port, onListen: (address) => listening.resolve(address.port) },
      async (request, info) => {
        this.requests.push({ method: request.method, headers: Object.fromEntries(request.headers) });
        return this.#counted(await handler(request, { remoteAddr: info.remoteAddr }));
      },
    );
    this.#handler = handler;
    this.#port = await listening.promise;
    return this;
  }

  #counted(response: Response): Response {
    if (response.body === null || !(response.headers.get("content-type") ?? "").includes("event-stream")) {
      return response;
    }
    const reader = response.body.getReader();
    let open = true;
    const done = () => {
      if (open) this.#streams -= 1;
      open = false;
    };
    this.#streams += 1;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done: end } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (end) {
          done();
          controller.close();
        } else controller.enqueue(value!);
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /** The base URL, `http://127.0.0.1:<port>`. */
  get base(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** The bound port. */
  get port(): number {
    return this.#port;
  }

  /** Event-stream responses still open. */
  get openStreams(): number {
    return this.#streams;
  }

  /** Sessions the handler holds. */
  get sessions(): number {
    return this.#handler?.sessionCount ?? 0;
  }

  /** Closes the sessions and the socket (the server is down until {@linkcode start}). */
  async stop(): Promise<void> {
    const [handler, http] = [this.#handler, this.#http];
    this.#handler = this.#http = undefined;
    await handler?.close();
    await http?.shutdown();
  }

  /** Same as {@linkcode stop}. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/** A TCP proxy on 127.0.0.1 in front of `targetPort` that counts the connections open through it. */
export class CountingProxy implements AsyncDisposable {
  #listener: Deno.Listener;
  #open = 0;
  #pipes = new Set<Promise<void>>();
  #conns = new Set<Deno.Conn>();
  #accepting: Promise<void>;

  /** Listens at once on a free port. */
  constructor(targetPort: number) {
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#accepting = this.#accept(targetPort);
  }

  async #accept(targetPort: number): Promise<void> {
    try {
      for await (const conn of this.#listener) {
        this.#open += 1;
        const pipe = this.#pipe(conn, targetPort).finally(() => {
          this.#open -= 1;
          this.#pipes.delete(pipe);
        });
        this.#pipes.add(pipe);
      }
    } catch {
      // listener closed
    }
  }

  async #pipe(conn: Deno.Conn, targetPort: number): Promise<void> {
    this.#conns.add(conn);
    let upstream: Deno.Conn | undefined;
    try {
      upstream = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
      this.#conns.add(upstream);
      await Promise.race([
        conn.readable.pipeTo(upstream.writable),
        upstream.readable.pipeTo(conn.writable),
      ]).catch(() => {});
    } finally {
      for (const c of [conn, upstream]) {
        if (c === undefined) continue;
        this.#conns.delete(c);
        try {
          c.close();
        } catch {
          // already closed by a pipe
        }
      }
    }
  }

  /** The proxy's port. */
  get port(): number {
    return (this.#listener.addr as Deno.NetAddr).port;
  }

  /** TCP connections open through the proxy. */
  get open(): number {
    return this.#open;
  }

  /** Stops accepting and closes every connection. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#listener.close();
    await this.#accepting;
    for (const conn of this.#conns) {
      try {
        conn.close();
      } catch {
        // closed meanwhile
      }
    }
    await Promise.all(this.#pipes);
  }
}

/** Polls `check` every 10 ms until it holds; throws after `ms`. */
export async function waitFor(check: () => boolean, what: string, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Forces a full garbage collection (V8's `gc`, enabled at run time). */
export function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

/** A logger keeping its records (debug and up) in memory. */
export function testLogger(): { logger: Logger; records: LogRecord[] } {
  const sink = memorySink();
  return { logger: new Logger("test.mcp", { level: "debug", sink }), records: sink.records };
}

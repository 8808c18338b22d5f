/**
 * ControlServer: the control API on a socket (`node:http`, with connection limits: `serveHandler`).
 *
 * @module
 */

import type { AgentRuntime } from "../runtime/mod.ts";
import { type Served, serveHandler } from "../_util/serve.ts";
import { createControlApi } from "./control_api.ts";
import type { ControlApi } from "./context.ts";
import { ApiError, FIXED_MESSAGES } from "./errors.ts";
import { type ControlApiOptions, DEFAULT_HOST, DEFAULT_PORT } from "./options.ts";

/** Time answers in flight get when the control API stops, before every connection is cut: 5 s. */
export const CONTROL_STOP_GRACE_MS = 5_000;

/**
 * Serves the control API. The constructor checks the settings (spec 000); `start()` binds and serves,
 * `stop()` closes the server gracefully.
 *
 * @example
 * ```ts
 * import { AgentRuntime, ControlServer } from "@agentry/agentry";
 * await using server = new ControlServer(new AgentRuntime(), { port: 0 });
 * await server.start();
 * console.log(server.url); // http://127.0.0.1:<port>
 * ```
 */
export class ControlServer {
  /** The app serving requests. */
  readonly app: ControlApi;
  /** Bind address. */
  readonly host: string;
  #port: number;
  #headTimeoutMs: number | undefined;
  #server: Served | undefined;
  #runtime: AgentRuntime;

  /** Checks the settings and builds the app; throws `RangeError` or `TypeError` for bad settings. */
  constructor(runtime: AgentRuntime, options: ControlApiOptions = {}) {
    this.app = createControlApi(runtime, options);
    this.#runtime = runtime;
    this.host = options.host ?? DEFAULT_HOST;
    this.#port = options.port ?? DEFAULT_PORT;
    const head = options.headTimeoutMs;
    if (head !== undefined && !(Number.isInteger(head) && head > 0)) {
      throw new RangeError("headTimeoutMs must be an integer > 0");
    }
    this.#headTimeoutMs = head;
  }

  /** The bound port (the OS-chosen one after start when configured as 0). */
  get port(): number {
    return this.#port;
  }

  /** Base URL, e.g. `http://127.0.0.1:9100`. */
  get url(): string {
    const host = this.host.includes(":") ? `[${this.host}]` : this.host;
    return `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${this.#port}`;
  }

  /** Whether the server is serving. */
  get listening(): boolean {
    return this.#server !== undefined;
  }

  /** Binds and serves; resolves once listening. */
  async start(): Promise<void> {
    if (this.#server) return;
    const app = this.app;
    const served = await serveHandler({
      hostname: this.host,
      port: this.#port,
      handler: (request, remoteAddr) => app.fetch(request, { remoteAddr: remoteAddr.hostname }),
      onError: () => new ApiError("INTERNAL_ERROR", FIXED_MESSAGES.INTERNAL_ERROR).toResponse(),
      limits: { headTimeoutMs: this.#headTimeoutMs },
    });
    this.#server = served;
    this.#port = served.port;
  }

  /**
   * Stops accepting connections and waits up to {@linkcode CONTROL_STOP_GRACE_MS} for answers in flight; then
   * every connection is cut (long polls, progress streams, clients that never finish a body), so a stop or
   * SIGTERM ends in bounded time whatever clients do.
   */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) this.#runtime.eventLog.disconnectAll(); // event streams end now, not at the grace's end
    await server?.close(CONTROL_STOP_GRACE_MS);
  }

  /** Resolves when the server has closed. */
  get finished(): Promise<void> {
    return this.#server?.finished ?? Promise.resolve();
  }

  /** Stops the server (for `await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}

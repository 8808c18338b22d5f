/**
 * WebhookTrigger: an HTTP endpoint that turns each POST into a trigger event (spec 001, "Endpoints").
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { type Served, serveHandler } from "../_util/serve.ts";
import { TriggerBase } from "./trigger_base.ts";
import type { TriggerEvent } from "./types.ts";
import { readLimitedBody } from "../_util/read_body.ts";
import { HmacSha256 } from "../_util/hmac_sha256.ts";

/** Largest accepted webhook body: 1 MiB. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;
/** Header carrying `sha256=<hex HMAC-SHA256 of the raw body>` when a secret is set. */
export const WEBHOOK_SIGNATURE_HEADER = "x-webhook-signature";
/** Request headers never copied into event metadata (credentials and the signature). */
export const WEBHOOK_REDACTED_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  WEBHOOK_SIGNATURE_HEADER,
]);

/** Facts about the connection a request came in on. */
export interface WebhookRequestInfo {
  /** Client IP address (put in metadata as `remote`; `null` when absent). */
  remoteAddr?: string;
}

/** A webhook request handler: `(Request) => Response`, usable without a socket. */
export type WebhookHandler = (request: Request, info?: WebhookRequestInfo) => Promise<Response>;

/** Options for {@linkcode WebhookTrigger}. */
export interface WebhookTriggerOptions {
  /** Path that accepts POSTs; starts with `/`, not `/health`. */
  path: string;
  /** Port to bind in {@linkcode WebhookTrigger.start}; 0 picks a free port. */
  port: number;
  /** Address to bind. @default "0.0.0.0" */
  host?: string;
  /** Shared secret: when set, each POST must carry a valid `X-Webhook-Signature` header. */
  hmacSecret?: string;
  /** Trigger id. @default `webhook-<port><path>` (the port as configured) */
  triggerId?: string;
  /** Queue capacity; a POST that finds it full gets 503. @default 1000 */
  capacity?: number;
  /** Where dropped events and handler failures are logged. */
  logger?: Logger;
  /**
   * Called for each authenticated POST before it is queued; a returned string refuses the POST with
   * 503 `{status: "unavailable", message: <string>}` and `Retry-After: 30` (e.g. the process is failed or
   * stopping). `undefined` accepts.
   */
  accepting?: () => string | undefined;
  /** Longest time to receive a body before answering 408. @default 30000 */
  bodyTimeoutMs?: number;
  /**
   * Records each event durably before the 202 (the process's `PartContext.accept`); a failed write answers
   * 503 `{status: "error", message: "event could not be recorded"}` and queues nothing.
   * @default none: the event is only queued
   */
  accept?: (event: TriggerEvent) => Promise<void>;
  /** Longest time to receive a request head (line and headers) before 408 and closing. @default 10000 */
  headTimeoutMs?: number;
}

const BODY_ERRORS: Record<number, string> = {
  400: "request body could not be read",
  408: "request body timeout",
  413: "payload too large",
};

/**
 * Webhook trigger. `handler` answers requests (tests and embedding call it directly); `start()` serves it
 * on a socket (`serveHandler`: head and keep-alive timeouts, connections per address), `stop()` shuts the server down gracefully and then enqueues the stop sentinel.
 *
 * Routes: `POST <path>` → 202 `{status: "accepted", event_id}` once the event is recorded (with `accept`)
 * and queued (401 bad signature, 413 over 1 MiB, 503 queue full, not accepting, or not recorded); `GET /health` → 200 `{status: "healthy", trigger_id, queue_size}`;
 * other methods → 405 with `Allow`; other paths → 404. Every answer is JSON.
 *
 * @example
 * ```ts
 * import { WebhookTrigger } from "./webhook_trigger.ts";
 * const trigger = new WebhookTrigger({ path: "/hook", port: 0, host: "127.0.0.1" });
 * await trigger.start();
 * await fetch(`${trigger.url}/hook`, { method: "POST", body: '{"a":1}' }).then((r) => r.body?.cancel());
 * console.log((await trigger.waitForNext()).payload); // { a: 1 }
 * await trigger.stop();
 * ```
 */
export class WebhookTrigger extends TriggerBase {
  /** Path that accepts POSTs. */
  readonly path: string;
  /** Bind address. */
  readonly host: string;
  /** Answers one request; `info.remoteAddr` becomes metadata `remote`. */
  readonly handler: WebhookHandler;
  #port: number;
  #signer: HmacSha256 | undefined;
  #accepting: (() => string | undefined) | undefined;
  #bodyTimeoutMs: number;
  #headTimeoutMs: number | undefined;
  #server: Served | undefined;
  #closed = false;

  /** Checks the options; throws `RangeError` for a bad path, port, capacity, timeout or an empty secret. */
  constructor(options: WebhookTriggerOptions) {
    super(baseOptions(options));
    this.path = options.path;
    this.host = options.host ?? "0.0.0.0";
    this.#port = options.port;
    this.#signer = options.hmacSecret === undefined ? undefined : new HmacSha256(options.hmacSecret);
    this.#accepting = options.accepting;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
    this.#headTimeoutMs = options.headTimeoutMs;
    this.handler = (request, info) => this.#handle(request, info?.remoteAddr ?? null);
  }

  /** The bound port after start (the OS-chosen one for port 0); the configured port before. */
  get port(): number {
    return this.#port;
  }

  /** Base URL of the server, e.g. `http://127.0.0.1:9090` (`0.0.0.0` shown as `127.0.0.1`). */
  get url(): string {
    const host = this.host === "0.0.0.0" ? "127.0.0.1" : this.host === "::" ? "::1" : this.host;
    return `http://${host.includes(":") ? `[${host}]` : host}:${this.#port}`;
  }

  /** Refuses further POSTs, shuts the server down gracefully, then enqueues the stop sentinel. */
  override async stop(): Promise<void> {
    this.#closed = true;
    await super.stop();
  }

  /** Stops the trigger (for `await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  /** Binds `host:port` and serves {@linkcode WebhookTrigger.handler}; rejects when it cannot bind. */
  protected override async listen(): Promise<void> {
    const served = await serveHandler({
      hostname: this.host,
      port: this.#port,
      handler: (request, remoteAddr) => this.handler(request, { remoteAddr: remoteAddr.hostname }),
      onError: () => json(500, { status: "error", message: "internal error" }),
      limits: { headTimeoutMs: this.#headTimeoutMs },
    });
    this.#server = served;
    this.#port = served.port;
  }

  /** Stops accepting connections and waits for answers in flight. */
  protected override async unlisten(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    await server?.shutdown();
  }

  async #handle(request: Request, remote: string | null): Promise<Response> {
    try {
      const url = splitUrl(request.url);
      if (url.pathname === "/health") {
        if (request.method !== "GET") return notAllowed("GET");
        return json(200, { status: "healthy", trigger_id: this.triggerId, queue_size: this.queueSize });
      }
      if (url.pathname !== this.path) return json(404, { status: "error", message: "not found" });
      if (request.method !== "POST") return notAllowed("POST");
      return await this.#post(request, url, remote);
    } catch (error) {
      this.logger?.error("webhook request failed", {
        trigger_id: this.triggerId,
        error: error instanceof Error ? error.name : typeof error,
      });
      return json(500, { status: "error", message: "internal error" });
    }
  }

  async #post(request: Request, url: SplitUrl, remote: string | null): Promise<Response> {
    const body = await readLimitedBody(request, WEBHOOK_MAX_BODY_BYTES, this.#bodyTimeoutMs);
    if (typeof body === "number") return json(body, { status: "error", message: BODY_ERRORS[body] });
    const signer = this.#signer;
    if (signer && !signer.verify(request.headers.get(WEBHOOK_SIGNATURE_HEADER), body)) {
      return json(401, { status: "error", message: "invalid signature" });
    }
    const reason = this.#closed ? "trigger stopped" : this.#accepting?.();
    if (reason !== undefined) {
      return json(503, { status: "unavailable", message: reason }, { "retry-after": "30" });
    }
    const text = DECODER.decode(body);
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // not JSON: the payload is the text
    }
    const headers: Record<string, string> = {};
    // forEach is several times cheaper than for...of on Deno's Headers (no entry arrays).
    request.headers.forEach((value, name) => {
      if (!WEBHOOK_REDACTED_HEADERS.has(name)) headers[name] = value;
    });
    const event = this.makeEvent(payload, {
      method: "POST",
      path: url.pathname,
      query: url.search === "" ? {} : Object.fromEntries(new URLSearchParams(url.search)),
      headers,
      remote,
      signature_verified: signer !== undefined,
    });
    const admitted = await this.admit(event);
    if (admitted === "full") {
      return json(503, { status: "error", message: "queue full" }, { "retry-after": "1" });
    }
    if (admitted === "unrecorded") {
      return json(503, { status: "error", message: "event could not be recorded" }, { "retry-after": "1" });
    }
    return new Response(`{"status":"accepted","event_id":"${event.event_id}"}`, ACCEPTED);
  }
}

function baseOptions(options: WebhookTriggerOptions): ConstructorParameters<typeof TriggerBase>[0] {
  const { path, port, hmacSecret, bodyTimeoutMs, headTimeoutMs } = options;
  if (!path.startsWith("/") || path === "/health") {
    throw new RangeError("path must start with / and not be /health");
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError("port must be 0..65535");
  if (hmacSecret === "") throw new RangeError("hmacSecret must not be empty");
  if (bodyTimeoutMs !== undefined && !(bodyTimeoutMs > 0)) throw new RangeError("bodyTimeoutMs must be > 0");
  if (headTimeoutMs !== undefined && !(Number.isInteger(headTimeoutMs) && headTimeoutMs > 0)) {
    throw new RangeError("headTimeoutMs must be an integer > 0");
  }
  const capacity = options.capacity ?? 1000;
  return {
    triggerId: options.triggerId ?? `webhook-${port}${path}`,
    type: "webhook",
    capacity,
    logger: options.logger,
    accept: options.accept,
  };
}

const DECODER = new TextDecoder();

interface SplitUrl {
  pathname: string;
  search: string;
}

/** Path and query of an absolute request URL, without building a URL object (a hot path). */
function splitUrl(href: string): SplitUrl {
  const start = href.indexOf("/", href.indexOf("//") + 2);
  if (start === -1) return { pathname: "/", search: "" };
  const hash = href.indexOf("#", start);
  const end = hash === -1 ? href.length : hash;
  const query = href.indexOf("?", start);
  if (query === -1 || query > end) return { pathname: href.slice(start, end), search: "" };
  return { pathname: href.slice(start, query), search: href.slice(query + 1, end) };
}

/** Init of 202 answers (the body is built as a string: the event id is a UUID, safe in JSON as is). */
const ACCEPTED: ResponseInit = { status: 202, headers: { "content-type": "application/json" } };

function json(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers });
}

function notAllowed(allow: string): Response {
  return json(405, { status: "error", message: `method not allowed; use ${allow}` }, { allow });
}

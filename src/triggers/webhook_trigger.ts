/**
 * WebhookTrigger: an HTTP endpoint that turns each POST into a trigger event (spec 001, "Endpoints").
 *
 * @module
 */

import type { Logger } from "../log.ts";
import { type Served, serveHandler } from "../_util/serve.ts";
import { TriggerBase } from "./trigger_base.ts";
import type { TriggerEvent } from "./types.ts";
import {
  accepted,
  admitRefusal,
  bodyRefusal,
  json,
  notAllowed,
  readBodyUntil,
  signatureRefusal,
  type SplitUrl,
  splitUrl,
  unavailable,
} from "./_webhook_http.ts";
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, WebhookSignature } from "./webhook_signature.ts";

export { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER };

/** Largest accepted webhook body: 1 MiB. */
export const WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;
/**
 * Longest wait, when the trigger stops, for answers in flight to be sent before every connection is cut
 * (requests still receiving their body are answered 503 at once): 1 s.
 */
export const WEBHOOK_STOP_GRACE_MS = 1000;
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
  /**
   * Seconds a signed `X-Webhook-Timestamp` may differ from the clock; when above 0 the signature covers
   * `<timestamp>.<raw body>` and each signature is accepted once (needs `hmacSecret`).
   * @default 0 (the signature covers the body alone)
   */
  signatureTolerance?: number;
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

/**
 * Webhook trigger. `handler` answers requests (tests and embedding call it directly); `start()` serves it
 * on a socket (`serveHandler`: head and keep-alive timeouts, connections per address), `stop()` closes the
 * server within {@linkcode WEBHOOK_STOP_GRACE_MS} whatever clients do, waits for the events being recorded,
 * and then enqueues the stop sentinel.
 *
 * Routes: `POST <path>` → 202 `{status: "accepted", event_id}` once the event is recorded (with `accept`)
 * and queued (401 bad signature or timestamp, 409 replayed signature, 413 over 1 MiB, 503 queue full,
 * not accepting, stopping or not recorded); `GET /health` → 200 `{status: "healthy", trigger_id, queue_size}`;
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
  #signature: WebhookSignature | undefined;
  #accepting: (() => string | undefined) | undefined;
  #bodyTimeoutMs: number;
  #headTimeoutMs: number | undefined;
  #served: Served | undefined;
  #closed = false;
  /** Aborted when the trigger stops: body reads end and are answered 503. */
  #stopping = new AbortController();
  /** Requests being handled, and a wake-up for {@linkcode WebhookTrigger.unlisten} when none are left. */
  #handling = 0;
  #idle: (() => void) | undefined;

  /**
   * Checks the options; throws `RangeError` for a bad path, port, capacity, timeout, tolerance (or one
   * without a secret) or an empty secret.
   */
  constructor(options: WebhookTriggerOptions) {
    super(baseOptions(options));
    this.path = options.path;
    this.host = options.host ?? "0.0.0.0";
    this.#port = options.port;
    this.#signature = options.hmacSecret === undefined
      ? undefined
      : new WebhookSignature(options.hmacSecret, { toleranceSeconds: options.signatureTolerance });
    this.#accepting = options.accepting;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
    this.#headTimeoutMs = options.headTimeoutMs;
    this.handler = (request, info) => this.#track(this.#handle(request, info?.remoteAddr ?? null));
  }

  /** The bound port after start (the OS-chosen one for port 0); the configured port before. */
  get port(): number {
    return this.#port;
  }

  /** Requests being handled now (receiving a body, being checked or recorded). */
  get inFlight(): number {
    return this.#handling;
  }

  /** Base URL of the server, e.g. `http://127.0.0.1:9090` (`0.0.0.0` shown as `127.0.0.1`). */
  get url(): string {
    const host = this.host === "0.0.0.0" ? "127.0.0.1" : this.host === "::" ? "::1" : this.host;
    return `http://${host.includes(":") ? `[${host}]` : host}:${this.#port}`;
  }

  /**
   * Refuses further POSTs (503), answers those still receiving their body 503, closes the server within
   * {@linkcode WEBHOOK_STOP_GRACE_MS}, waits for the events being recorded, then enqueues the stop
   * sentinel.
   */
  override async stop(): Promise<void> {
    this.#closed = true;
    this.#stopping.abort();
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
    }).catch((error) => {
      throw bindProblem(error, { host: this.host, port: this.#port, triggerId: this.triggerId });
    });
    this.#served = served;
    this.#port = served.port;
  }

  /**
   * Closes the server (answers in flight get {@linkcode WEBHOOK_STOP_GRACE_MS}, then connections are
   * cut) and waits for the requests still being handled: after the body is read that is only the
   * event's write, so an event answered 202, or recorded and not answered, is in the queue when this ends.
   */
  protected override async unlisten(): Promise<void> {
    const served = this.#served;
    this.#served = undefined;
    await served?.close(WEBHOOK_STOP_GRACE_MS);
    if (this.#handling === 0) return;
    const idle = Promise.withResolvers<void>();
    this.#idle = idle.resolve;
    await idle.promise;
  }

  async #track(answer: Promise<Response>): Promise<Response> {
    this.#handling++;
    try {
      return await answer;
    } finally {
      if (--this.#handling === 0) this.#idle?.();
    }
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
    const limit = WEBHOOK_MAX_BODY_BYTES;
    const body = await readBodyUntil(request, {
      stop: this.#stopping.signal,
      limit,
      timeoutMs: this.#bodyTimeoutMs,
    });
    if (body === "stopped") return unavailable("trigger stopped");
    if (typeof body === "number") return bodyRefusal(body);
    const signature = this.#signature;
    const check = signature?.check(request.headers, body) ?? "ok";
    if (check !== "ok") return signatureRefusal(check);
    let accepted = false;
    try {
      const answer = await this.#admit(request, body, url, remote);
      accepted = answer.status === 202;
      return answer;
    } finally {
      if (!accepted) signature?.release(request.headers); // not accepted: the client may send it again
    }
  }

  async #admit(request: Request, body: Uint8Array, url: SplitUrl, remote: string | null): Promise<Response> {
    const reason = this.#closed ? "trigger stopped" : this.#accepting?.();
    if (reason !== undefined) return unavailable(reason);
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
      signature_verified: this.#signature !== undefined,
    });
    const admitted = await this.admit(event);
    return admitted === "queued" ? accepted(event.event_id) : admitRefusal(admitted);
  }
}

function baseOptions(options: WebhookTriggerOptions): ConstructorParameters<typeof TriggerBase>[0] {
  const { path, port, hmacSecret, bodyTimeoutMs, headTimeoutMs, signatureTolerance } = options;
  if (!path.startsWith("/") || path === "/health") {
    throw new RangeError("path must start with / and not be /health");
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError("port must be 0..65535");
  if (hmacSecret === "") throw new RangeError("hmacSecret must not be empty");
  if (signatureTolerance !== undefined && signatureTolerance !== 0 && hmacSecret === undefined) {
    throw new RangeError("signatureTolerance needs hmacSecret");
  }
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

/**
 * Marks a bind failure the operator must fix (port in use, address not on this machine) with the hint an
 * API answer carries (`publicDetail`); the error keeps its type (`Deno.errors.AddrInUse`, ...).
 */
function bindProblem(error: unknown, where: { host: string; port: number; triggerId: string }): unknown {
  const address = `${where.host}:${where.port}`;
  const detail = error instanceof Deno.errors.AddrInUse
    ? { field: "webhook_port", expected: `a free port (${address} is already in use)` }
    : error instanceof Deno.errors.AddrNotAvailable
    ? { field: "webhook_host", expected: `an address of this machine (${where.host} is not)` }
    : undefined;
  if (detail === undefined) return error;
  const field = `config.triggers[${where.triggerId}].${detail.field}`;
  return Object.assign(error as Error, { publicDetail: { field, expected: detail.expected } });
}

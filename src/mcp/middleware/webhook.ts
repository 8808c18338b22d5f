/**
 * Webhook notifications of tool calls: a JSON POST per event, sent in the background so the call
 * never waits for (or fails because of) the receiver.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import { internalError, ToolError } from "../errors.ts";
import { isInputRequired } from "../input_required.ts";
import type { RequestContext } from "../request_context.ts";
import type { Middleware } from "../types.ts";
import { checkNumber, MIDDLEWARE_WORDING } from "./_options.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { pendingMethods } from "./pending_inputs.ts";

/** The events a webhook can receive. */
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = [
  "tool.call",
  "tool.success",
  "tool.error",
  "tool.input_required",
];

/**
 * A webhook event: a call started, succeeded or failed, or (a round of a 2026-07-28 call) ended
 * asking its client for input; the client's retry is a new round with its own `tool.call`.
 */
export type WebhookEvent = "tool.call" | "tool.success" | "tool.error" | "tool.input_required";

/** Options for {@linkcode webhookMiddleware}. */
export interface WebhookOptions {
  /** Receiver URL (http or https). */
  url: string;
  /** Events to send. @default all of WEBHOOK_EVENTS */
  events?: Iterable<WebhookEvent>;
  /** Extra request headers (e.g. a shared secret). @default {} */
  headers?: Record<string, string>;
  /** Seconds each POST may take before it is abandoned. @default 5 */
  timeout?: number;
  /** The fetch used to post. @default globalThis.fetch */
  fetch?: typeof fetch;
}

const WEBHOOK_KEYS = { url: true, events: true, headers: true, timeout: true, fetch: true } satisfies Record<
  keyof WebhookOptions,
  true
>;

/** The JSON body of one notification. */
export interface WebhookPayload {
  /** What happened. */
  event: WebhookEvent;
  /** Tool name. */
  tool: string;
  /** Caller id, or null when unauthenticated. */
  client_id: string | null;
  /** Correlation id. */
  request_id: string;
  /** ISO 8601 time of the event. */
  timestamp: string;
  /** For `tool.error`: the code and client-safe message the caller saw. */
  error?: { code: string; message: string };
  /** For `tool.input_required`: what the client was asked, by key (`{ e1: "elicitation/create" }`). */
  pending?: Record<string, string>;
  /** The handler's response metadata (`ctx.state.response_metadata`), when set. */
  metadata?: unknown;
}

/** A webhook middleware; `flush()` waits for the notifications still being sent. */
export interface WebhookMiddleware extends Middleware {
  /** Resolves once every notification sent so far has been delivered or given up. */
  flush(): Promise<void>;
}

/** Notifications in flight beyond this are dropped (with a warning) rather than piling up. */
export const MAX_WEBHOOKS_IN_FLIGHT = 1000;

/**
 * Posts `{event, tool, client_id, request_id, timestamp, error?, pending?, metadata?}` to `url` for each
 * chosen event of each tool call, without waiting: delivery failures are logged as warnings and never
 * affect the call. Errors carry only the code and client-safe message (`INTERNAL_ERROR` for unexpected
 * ones). Every `tool.call` is followed by exactly one of `tool.success`, `tool.error` or
 * `tool.input_required`: a round of a 2026-07-28 call that ends asking its client for input (an
 * approval, say) is not an error; it posts `tool.input_required` with the pending keys and methods
 * (never the questions or answers), and the client's retry posts its own `tool.call` and outcome.
 *
 * @example
 * ```ts
 * import { createToolServer, webhookMiddleware } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * server.use(webhookMiddleware({ url: "https://hooks.example.com/mcp", events: ["tool.error"] }));
 * ```
 */
export function webhookMiddleware(options: WebhookOptions): WebhookMiddleware {
  const owner = "webhookMiddleware";
  checkOptionKeys(options, { owner: owner, keys: WEBHOOK_KEYS, ...MIDDLEWARE_WORDING });
  const { url, headers = {}, timeout = 5, fetch: post = globalThis.fetch } = options;
  const target = parseUrl(url);
  const events = new Set<string>(options.events ?? WEBHOOK_EVENTS);
  for (const event of events) {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
      throw new TypeError(`${owner}: unknown event '${event}' (known: ${WEBHOOK_EVENTS.join(", ")})`);
    }
  }
  if (typeof headers !== "object" || headers === null) {
    throw new TypeError(`${owner}: headers must be an object`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw new TypeError(`${owner}: header '${name}' must be a string`);
  }
  checkNumber(owner, { name: "timeout", value: timeout });
  if (typeof post !== "function") throw new TypeError(`${owner}: fetch must be a function`);
  const requestHeaders = { "content-type": "application/json", ...headers };
  const logUrl = `${target.origin}${target.pathname}`; // never the query or credentials
  const inflight = new Set<Promise<void>>();

  const send = (ctx: RequestContext, event: WebhookEvent, error?: unknown): void => {
    if (!events.has(event)) return;
    if (inflight.size >= MAX_WEBHOOKS_IN_FLIGHT) {
      ctx.logger.warning("webhook dropped: too many in flight", { event, url: logUrl });
      return;
    }
    let body: string;
    try {
      body = JSON.stringify(payload(ctx, event, error));
    } catch (failure) { // e.g. metadata JSON cannot hold
      ctx.logger.warning("webhook dropped: payload not serialisable", {
        event,
        error: describeError(failure),
      });
      return;
    }
    const delivery = (async () => {
      try {
        const response = await post(target, {
          method: "POST",
          headers: requestHeaders,
          body,
          signal: AbortSignal.timeout(timeout * 1000),
        });
        await response.body?.cancel();
        if (!response.ok) {
          ctx.logger.warning("webhook delivery failed", { event, url: logUrl, status: response.status });
        }
      } catch (failure) {
        ctx.logger.warning("webhook delivery failed", { event, url: logUrl, error: describeError(failure) });
      }
    })();
    inflight.add(delivery);
    void delivery.then(() => inflight.delete(delivery));
  };

  const middleware: Middleware = async (ctx, next) => {
    if (ctx.requestType !== "tool") return await next();
    send(ctx, "tool.call");
    try {
      const result = await next();
      send(ctx, "tool.success");
      return result;
    } catch (error) {
      send(ctx, isInputRequired(error) ? "tool.input_required" : "tool.error", error);
      throw error;
    }
  };
  const flush = async (): Promise<void> => {
    while (inflight.size > 0) await Promise.all(inflight);
  };
  return Object.assign(middleware, { flush });
}

function parseUrl(url: unknown): URL {
  const parsed = typeof url === "string" && URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol !== "http:" && parsed?.protocol !== "https:") {
    throw new TypeError("webhookMiddleware: url must be an http or https URL");
  }
  return parsed;
}

function payload(ctx: RequestContext, event: WebhookEvent, error: unknown): WebhookPayload {
  const body: WebhookPayload = {
    event,
    tool: ctx.name,
    client_id: ctx.clientId ?? null,
    request_id: ctx.requestId,
    timestamp: new Date().toISOString(),
  };
  if (event === "tool.error") {
    const safe = error instanceof ToolError ? error : internalError();
    body.error = { code: safe.code, message: safe.message };
  }
  if (event === "tool.input_required" && isInputRequired(error)) body.pending = pendingMethods(error);
  const metadata = ctx.state.response_metadata;
  if (metadata !== undefined) body.metadata = metadata;
  return body;
}

/**
 * A local model server speaking Chat Completions, the Responses API and the Anthropic Messages API, for
 * tests, benchmarks and trying Agentry without a model key.
 *
 * @module
 */

import type { ChatMessage, ToolCall, Usage } from "../types.ts";
import { ANTHROPIC_FORMAT } from "./_anthropic_format.ts";
import { CHAT_FORMAT } from "./_chat_format.ts";
import { RESPONSES_FORMAT } from "./_responses_format.ts";
import { record, type ReplyTurn, type WireFormat } from "./_wire.ts";
import { echoReply } from "./echo_reply.ts";

/** A request the server received, read back into our shapes. */
export interface RecordedRequest {
  /** Which API was called. */
  api: "chat" | "responses" | "anthropic";
  /** The request path (e.g. `/v1/chat/completions`). */
  path: string;
  /** The request headers (lower-case names). */
  headers: Record<string, string>;
  /** The JSON body as sent. */
  body: Record<string, unknown>;
  /** The conversation, normalised back to our `ChatMessage` shape. */
  messages: ChatMessage[];
  /** The offered tool names. */
  tools: string[];
  /** Whether a streamed answer was asked for. */
  stream: boolean;
}

/** What the server answers: a text, tool calls, an error status, or an answer cut before its end. */
export type ScriptedReply =
  | { text: string; usage?: Partial<Usage> }
  | {
    toolCalls: Array<{ name: string; arguments: Record<string, unknown> | string }>;
    text?: string;
    usage?: Partial<Usage>;
  }
  | { status: number; headers?: Record<string, string>; body?: string }
  | { truncate: true; text?: string };

/** Options of {@linkcode startModelServer}. */
export interface ModelServerOptions {
  /** Bind address. @default "127.0.0.1" */
  hostname?: string;
  /** Port; 0 lets the OS choose. @default 0 */
  port?: number;
  /** The reply to each request. @default echoReply */
  respond?: (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply>;
  /** A wait before each answer (ended early when the client goes away or the server closes). @default 0 */
  delayMs?: number;
  /** A wait between streamed events. @default 0 */
  chunkDelayMs?: number;
  /** Keep the received requests in `requests` (turn off for long benchmarks). @default true */
  record?: boolean;
}

/** A running model server. */
export interface ModelServer {
  /** The base URL of the OpenAI-style APIs, `http://HOST:PORT/v1` (for Anthropic, use it without `/v1`). */
  readonly url: string;
  /** The requests received so far, in order. */
  readonly requests: RecordedRequest[];
  /** Stops the server, ending waits and streams in progress. */
  close(): Promise<void>;
  /** Same as `close()`. */
  [Symbol.asyncDispose](): Promise<void>;
}

const FORMATS: Record<string, { api: RecordedRequest["api"]; format: WireFormat }> = {
  "/v1/chat/completions": { api: "chat", format: CHAT_FORMAT },
  "/v1/responses": { api: "responses", format: RESPONSES_FORMAT },
  "/v1/messages": { api: "anthropic", format: ANTHROPIC_FORMAT },
};
const JSON_HEADERS = { "content-type": "application/json" };
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };
const ERROR_BODY = JSON.stringify({ error: { type: "server_error", message: "scripted error" } });

/** Waits `ms`; false when `signal` aborted first. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function tokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function turnOf(reply: ScriptedReply, context: { request: RecordedRequest; seq: number }): ReplyTurn {
  const { request, seq } = context;
  const text = "text" in reply && reply.text !== undefined ? reply.text : "";
  const prefix = request.api === "anthropic" ? "toolu" : "call";
  const calls: ToolCall[] = "toolCalls" in reply
    ? reply.toolCalls.map((call, index) => ({
      id: `${prefix}_${seq}_${index}`,
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    }))
    : [];
  let input = 0;
  for (const message of request.messages) input += message.content.length;
  let output = text.length;
  for (const call of calls) output += call.name.length + call.arguments.length;
  const usage = "usage" in reply ? reply.usage : undefined;
  return {
    model: typeof request.body.model === "string" ? request.body.model : "",
    seq,
    text,
    calls,
    usage: {
      input_tokens: usage?.input_tokens ?? tokens(input),
      output_tokens: usage?.output_tokens ?? tokens(output),
    },
    truncated: "truncate" in reply,
    streamUsage: record(request.body.stream_options)?.include_usage === true,
  };
}

function slowStream(
  events: string[],
  pace: { delayMs: number; closing: AbortSignal },
): ReadableStream<Uint8Array> {
  const { delayMs, closing } = pace;
  const encoder = new TextEncoder();
  const cancelled = new AbortController();
  const signal = AbortSignal.any([cancelled.signal, closing]);
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      if (next > 0 && !(await wait(delayMs, signal))) return controller.close();
      if (next < events.length) controller.enqueue(encoder.encode(events[next++]));
      if (next === events.length) controller.close();
    },
    cancel() {
      cancelled.abort();
    },
  });
}

/**
 * Starts a model server (synchronously: it is bound when this returns). It serves
 * `POST /v1/chat/completions`, `POST /v1/responses` and `POST /v1/messages`, streamed or not, answering
 * each request with `options.respond` (the echo model by default); default usage is about one token per
 * four characters.
 */
export function startModelServer(options: ModelServerOptions = {}): ModelServer {
  const respond = options.respond ?? echoReply;
  const delayMs = options.delayMs ?? 0;
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  const keep = options.record ?? true;
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  let seq = 0;

  async function handle(request: Request): Promise<Response> {
    const url = request.url;
    const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const route = FORMATS[path];
    if (route === undefined) {
      return new Response(JSON.stringify({ error: { message: "not found" } }), { status: 404 });
    }
    if (request.method !== "POST") return new Response(null, { status: 405 });
    let body: Record<string, unknown> | undefined;
    try {
      body = record(await request.json());
    } catch {
      body = undefined;
    }
    if (body === undefined) {
      return new Response(JSON.stringify({ error: { message: "bad JSON" } }), { status: 400 });
    }
    const parsed = route.format.parse(body);
    const recorded: RecordedRequest = {
      api: route.api,
      path,
      headers: Object.fromEntries(request.headers),
      body,
      ...parsed,
    };
    if (keep) requests.push(recorded);
    const reply = await respond(recorded);
    if (delayMs > 0 && !(await wait(delayMs, AbortSignal.any([request.signal, closing.signal])))) {
      return new Response(null, { status: 503 });
    }
    if ("status" in reply) {
      return new Response(reply.body ?? ERROR_BODY, {
        status: reply.status,
        headers: { ...JSON_HEADERS, ...reply.headers },
      });
    }
    const turn = turnOf(reply, { request: recorded, seq: ++seq });
    if (parsed.stream) {
      const events = route.format.events(turn);
      const body = chunkDelayMs > 0
        ? slowStream(events, { delayMs: chunkDelayMs, closing: closing.signal })
        : events.join("");
      return new Response(body, { headers: SSE_HEADERS });
    }
    const json = route.format.json(turn);
    return new Response(turn.truncated ? json.slice(0, json.length >> 1) : json, { headers: JSON_HEADERS });
  }

  const server = Deno.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    onListen: () => {},
    onError: () => new Response(ERROR_BODY, { status: 500, headers: JSON_HEADERS }),
  }, handle);
  const host = server.addr.hostname.includes(":") ? `[${server.addr.hostname}]` : server.addr.hostname;
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    url: `http://${host}:${server.addr.port}/v1`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

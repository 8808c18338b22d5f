/**
 * The legacy HTTP+SSE server transport (protocol 2024-11-05) on web-standard `Request`/`Response`:
 * `GET /sse` holds an event stream whose first event names the message endpoint, and the client posts
 * its JSON-RPC messages there (`POST /messages/?session_id=<id>`, answered 202).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/auth/types"
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import {
  bodyProblem,
  headerRecord,
  isJsonType,
  MAX_MESSAGE_BYTES,
  readJson,
  rpcError,
  sessionNotFound,
} from "./_http.ts";

/** Options for {@linkcode SseServerTransport}. */
export interface SseServerTransportOptions {
  /** Path the client posts messages to. @default "/messages/" */
  endpoint?: string;
  /** Session id. @default a random UUID */
  sessionId?: string;
  /** Milliseconds between `: keepalive` comments; 0 disables them. @default 15000 */
  keepAliveMs?: number;
  /** Largest accepted message body in bytes. @default 4194304 (4 MiB) */
  maxBodyBytes?: number;
}

/** Options for {@linkcode SseServerTransport.handlePostMessage}. */
export interface PostMessageOptions {
  /** Passed to the protocol layer with the message. */
  authInfo?: AuthInfo;
}

const KEYS = {
  endpoint: true,
  sessionId: true,
  keepAliveMs: true,
  maxBodyBytes: true,
} satisfies Record<keyof SseServerTransportOptions, true>;
const encoder = new TextEncoder();

/**
 * One SSE session. Connect it to an SDK server, return {@linkcode response} for the `GET`, and pass the
 * session's POSTs to {@linkcode handlePostMessage}.
 *
 * @example
 * ```ts ignore
 * const transport = new SseServerTransport();
 * await sdkServer.connect(transport);
 * return transport.response; // the answer to GET /sse
 * ```
 */
export class SseServerTransport implements Transport {
  /** The session id (the `session_id` query parameter of the endpoint). */
  readonly sessionId: string;
  /** The event-stream answer for the opening `GET`. */
  readonly response: Response;
  /** Called once when the stream ends (closed here or by the client). */
  onclose?: () => void;
  /** Called on transport errors. */
  onerror?: (error: Error) => void;
  /** Called with every message received. */
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #endpoint: string;
  #keepAliveMs: number;
  #maxBodyBytes: number;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #started = false;
  #closed = false;

  /** A transport for one session; a TypeError for unknown or invalid options. */
  constructor(options: SseServerTransportOptions = {}) {
    checkOptionKeys(options, { owner: "SseServerTransport", keys: KEYS });
    this.sessionId = options.sessionId ?? crypto.randomUUID();
    this.#endpoint = options.endpoint ?? "/messages/";
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
    this.#maxBodyBytes = options.maxBodyBytes ?? MAX_MESSAGE_BYTES;
    if (!this.#endpoint.startsWith("/") || /[\r\n]/.test(this.#endpoint)) {
      throw new TypeError("SseServerTransport: endpoint must be a path starting with '/'");
    }
    if (!(this.#keepAliveMs >= 0)) throw new TypeError("SseServerTransport: keepAliveMs must be >= 0");
    if (!(this.#maxBodyBytes > 0)) throw new TypeError("SseServerTransport: maxBodyBytes must be > 0");
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#finish(),
    });
    this.response = new Response(stream, {
      headers: {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    });
  }

  /** The endpoint the client is told to post to. */
  get endpoint(): string {
    const separator = this.#endpoint.includes("?") ? "&" : "?";
    return `${this.#endpoint}${separator}session_id=${encodeURIComponent(this.sessionId)}`;
  }

  /** Sends the `endpoint` event and starts the keep-alive comments. */
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error("SseServerTransport already started"));
    this.#started = true;
    this.#write(`event: endpoint\ndata: ${this.endpoint}\n\n`);
    if (this.#keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => {
        if (!this.#write(": keepalive\n\n")) void this.close();
      }, this.#keepAliveMs);
    }
    return Promise.resolve();
  }

  /** Answers one POST of the session: 202 once the message is handed on; 400, 404, 413 or 415 otherwise. */
  async handlePostMessage(request: Request, options: PostMessageOptions = {}): Promise<Response> {
    if (this.#closed || !this.#started) return sessionNotFound();
    if (request.method !== "POST") return rpcError(405, -32000, "Method not allowed.", { allow: "POST" });
    if (!isJsonType(request.headers.get("content-type"))) {
      return rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    const body = await readJson(request, this.#maxBodyBytes);
    if (typeof body === "number") return bodyProblem(body);
    const parsed = JSONRPCMessageSchema.safeParse(body.value);
    if (!parsed.success) {
      this.onerror?.(new Error("invalid JSON-RPC message"));
      return rpcError(400, -32600, "Invalid Request: not a JSON-RPC message");
    }
    const extra: MessageExtraInfo = {
      requestInfo: { headers: headerRecord(request.headers), url: new URL(request.url) },
      authInfo: options.authInfo,
    };
    this.onmessage?.(parsed.data, extra);
    return new Response("Accepted", { status: 202, headers: { "content-type": "text/plain" } });
  }

  /** Writes `message` as a `message` event; throws once the stream has ended. */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("Not connected"));
    if (!this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`)) {
      return Promise.reject(new Error("Not connected"));
    }
    return Promise.resolve();
  }

  /** Ends the stream; idempotent. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    try {
      this.#controller.close();
    } catch {
      // already closed or errored
    }
    this.#finish();
    return Promise.resolve();
  }

  #write(text: string): boolean {
    try {
      this.#controller.enqueue(encoder.encode(text));
      return true;
    } catch {
      return false;
    }
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
    this.onclose?.();
  }
}

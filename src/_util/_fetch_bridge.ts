/**
 * Between `node:http` and fetch handlers: an `IncomingMessage` as a `Request` (streamed body, a signal
 * aborted when the client goes away before the answer is complete) and a `Response` written to a
 * `ServerResponse` (with a Content-Length, except server-sent event streams, which are written chunk by chunk with backpressure).
 *
 * @module
 */

import type { IncomingMessage, ServerResponse } from "node:http";

/** Host header characters that cannot be part of an authority (path, query, user info, spaces). */
const BAD_HOST = /[\s/?#@\\]/;

/**
 * The request as a fetch `Request`, or `undefined` when its target, Host header or method cannot form
 * one (the caller answers 400).
 */
export function toRequest(
  req: IncomingMessage,
  options: { base: string; signal: AbortSignal },
): Request | undefined {
  const target = req.url ?? "/";
  const host = req.headers.host ?? options.base;
  if (BAD_HOST.test(host)) return undefined;
  let url: URL;
  try {
    url = new URL(target.startsWith("/") ? `http://${host}${target}` : target);
  } catch {
    return undefined;
  }
  const headers = new Headers();
  try {
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
    }
  } catch {
    return undefined;
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD" &&
    (headers.has("transfer-encoding") ||
      (headers.has("content-length") && headers.get("content-length") !== "0"));
  try {
    return new Request(url, {
      method,
      headers,
      body: hasBody ? bodyStream(req) : null,
      signal: options.signal,
    });
  } catch {
    return undefined; // a method fetch forbids (TRACE, TRACK)
  }
}

function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Uint8Array) => {
        if (settled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on("end", () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      req.on("close", () => {
        if (settled || req.complete) return;
        settled = true;
        controller.error(new TypeError("the client closed the connection before the body ended"));
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      // Discard the rest; `node:http` reuses the connection once the body is consumed.
      settled = true;
      req.resume();
    },
  }, { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength });
}

/** Writes `response` to `res`; resolves when done or when the client went away (the body is cancelled). */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  // Every answer but a server-sent event stream is whole once made (JSON, text, bytes): read it at once and
  // send it with a Content-Length. Streams go out chunk by chunk, with backpressure.
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    try {
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (!res.hasHeader("content-length")) res.setHeader("content-length", bytes.byteLength);
      res.end(bytes);
    } catch {
      if (!res.writableEnded) res.destroy();
    }
    return;
  }
  await writeStream(res, response.body);
}

async function writeStream(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const gone = Promise.withResolvers<"gone">();
  res.once("close", () => gone.resolve("gone"));
  try {
    res.flushHeaders();
    while (true) {
      const step = await Promise.race([reader.read(), gone.promise]);
      if (step === "gone") throw new Error("gone");
      if (step.done) break;
      if (!res.write(step.value)) {
        const drained = await Promise.race([
          new Promise<"drain">((resolve) => res.once("drain", () => resolve("drain"))),
          gone.promise,
        ]);
        if (drained === "gone") throw new Error("gone");
      }
    }
    res.end();
  } catch {
    reader.cancel().catch(() => {});
    if (!res.writableEnded) res.destroy();
  }
}

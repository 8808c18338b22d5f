/**
 * Webhook benchmark servers, each run as its own `deno run` subprocess on 127.0.0.1 port 0:
 *
 * - `--mode trigger [--secret S]`: A, a started {@linkcode WebhookTrigger} on `POST /hook` (queue capacity
 *   10,000) with a consumer draining `waitForNext()` so the queue never fills; with `--secret` every POST
 *   must carry a valid `X-Webhook-Signature`.
 * - `--mode bare [--secret S]`: B, a bare `Deno.serve` that reads the body of `POST /hook` and answers 202
 *   with `{"status":"accepted","event_id":"<uuid>"}` (same shape, length and content-type as A's answer);
 *   with `--secret` it first checks `X-Webhook-Signature` with `node:crypto` (`createHmac`,
 *   `timingSafeEqual`) and answers 401 when it does not match, as A does.
 *
 * Prints `{"url", "pid"}` on stdout once listening; exits on SIGTERM or when stdin closes.
 *
 * Usage: `deno run --allow-all bench/webhook_server.ts --mode trigger|bare [--secret S]`
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookTrigger } from "../src/triggers/mod.ts";
import { flag, serveUntilTold } from "./_serve_until_told.ts";

/** Path both servers accept POSTs on. */
export const HOOK_PATH = "/hook";

async function serveTrigger(secret: string | undefined): Promise<never> {
  const trigger = new WebhookTrigger({
    path: HOOK_PATH,
    port: 0,
    host: "127.0.0.1",
    capacity: 10_000,
    hmacSecret: secret,
  });
  await trigger.start();
  (async () => {
    while (true) await trigger.waitForNext();
  })().catch(() => undefined); // TriggerCancelledError at stop
  return await serveUntilTold(trigger.url, () => trigger.stop());
}

/** Whether `header` is `sha256=<hex HMAC-SHA256 of body>` under `secret`, the plain `node:crypto` way. */
function signedBy(secret: string, header: string | null, body: Uint8Array): boolean {
  const match = header === null ? null : /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  return timingSafeEqual(Buffer.from(match[1], "hex"), createHmac("sha256", secret).update(body).digest());
}

async function serveBare(secret: string | undefined): Promise<never> {
  const headers = { "content-type": "application/json" };
  const listening = Promise.withResolvers<string>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ hostname, port }) => listening.resolve(`http://${hostname}:${port}`),
  }, async (request) => {
    if (request.method !== "POST" || new URL(request.url).pathname !== HOOK_PATH) {
      return new Response('{"status":"error","message":"not found"}', { status: 404, headers });
    }
    const body = await request.bytes();
    if (secret !== undefined && !signedBy(secret, request.headers.get("x-webhook-signature"), body)) {
      return new Response('{"status":"error","message":"invalid signature"}', { status: 401, headers });
    }
    const answer = JSON.stringify({ status: "accepted", event_id: crypto.randomUUID() });
    return new Response(answer, { status: 202, headers });
  });
  return await serveUntilTold(await listening.promise, () => server.shutdown());
}

if (import.meta.main) {
  const mode = flag("mode");
  if (mode === "trigger") await serveTrigger(flag("secret"));
  else if (mode === "bare") await serveBare(flag("secret"));
  else throw new Error("usage: webhook_server.ts --mode trigger|bare [--secret S]");
}

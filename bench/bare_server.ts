/**
 * Benchmark server B: a bare Hono app on `Deno.serve` (127.0.0.1, port 0) answering the two benchmarked
 * routes with bytes captured from the Agentry server: the same status, content-type and body. The deploy
 * route parses the JSON body, as any JSON API must. Prints `{"url", "pid"}` on stdout once listening;
 * exits on SIGTERM or when stdin closes.
 *
 * Usage: `deno run --allow-all bench/bare_server.ts --answers FILE` where FILE holds {@linkcode Answers}.
 *
 * @module
 */

import { Hono } from "hono";
import { flag, serveUntilTold } from "./_serve_until_told.ts";

/** Captured answers to replay. */
export interface Answers {
  /** `content-type` of both answers. */
  contentType: string;
  /** Body of `GET /api/v1/processes/{name}` (200). */
  get: string;
  /** Body of `POST /api/v1/processes` (201). */
  post: string;
}

if (import.meta.main) {
  const file = flag("answers");
  if (!file) throw new Error("usage: bare_server.ts --answers FILE");
  const answers: Answers = JSON.parse(await Deno.readTextFile(file));
  const headers = { "content-type": answers.contentType };
  const app = new Hono();
  app.get("/api/v1/processes/:name", (c) => c.body(answers.get, 200, headers));
  app.post("/api/v1/processes", async (c) => {
    await c.req.json();
    return c.body(answers.post, 201, headers);
  });
  const listening = Promise.withResolvers<string>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ hostname, port }) => listening.resolve(`http://${hostname}:${port}`),
  }, app.fetch);
  await serveUntilTold(await listening.promise, () => server.shutdown());
}

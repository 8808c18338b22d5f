/**
 * Helpers for the parse-stage tests: a temporary directory, an environment lookup from a record and a
 * spec server on 127.0.0.1.
 *
 * @module
 */

import type { EnvLookup } from "./types.ts";

/** A temporary directory removed on `await using` disposal. */
export interface TempDir extends AsyncDisposable {
  /** Absolute path. */
  readonly path: string;
}

/** A fresh temporary directory. */
export async function tempDir(): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix: "agentry_mcpcast_" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** An environment lookup that knows only `values`. */
export function envOf(values: Record<string, string> = {}): EnvLookup {
  return (name) => Object.hasOwn(values, name) ? values[name] : undefined;
}

/** A server on 127.0.0.1 that shuts down on `await using` disposal. */
export interface LocalServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** URL and headers of the requests received, in order. */
  readonly requests: { url: string; headers: Headers }[];
}

/** Serves `handler` on 127.0.0.1 on a free port. */
export async function localServer(
  handler: (request: Request) => Response | Promise<Response>,
): Promise<LocalServer> {
  const requests: { url: string; headers: Headers }[] = [];
  const listening = Promise.withResolvers<number>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => listening.resolve(port),
    onError: () => new Response("error", { status: 500 }),
  }, (request) => {
    requests.push({ url: request.url, headers: new Headers(request.headers) });
    return handler(request);
  });
  const port = await listening.promise;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    [Symbol.asyncDispose]: async () => {
      await server.shutdown();
    },
  };
}

/** A minimal valid OpenAPI 3 document with the given paths. */
export function openapi(
  paths: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { openapi: "3.0.3", info: { title: "Test API", version: "1" }, paths, ...extra };
}

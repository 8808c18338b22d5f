/**
 * The web console's handler: serves the embedded page under `/console/` and redirects `/` there.
 *
 * @module
 */

import type { ConsoleAsset } from "./asset.ts";
import { ASSETS } from "./_assets.ts";

/** Where the console is served. */
export const CONSOLE_PATH = "/console/";

/**
 * The Content-Security-Policy of every console answer: only this origin's scripts, styles and connections,
 * no inline script, no framing.
 */
export const CONSOLE_CSP: string = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Options for {@linkcode consoleHandler}. */
export interface ConsoleOptions {
  /**
   * The embedded files by name (`index.html` is the page).
   * @default the console built into the program
   */
  assets?: Readonly<Record<string, ConsoleAsset>>;
}

/** A handler answering the requests it owns and `undefined` for every other one. */
export type ConsoleHandler = (request: Request) => Response | undefined;

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/**
 * Builds the console's handler: `GET`/`HEAD` of `/console/` (the page), `/console/<file>` (its scripts and
 * styles, revalidated by ETag) and `/` (302 to `/console/`); `/console` redirects to `/console/`. Other
 * requests answer `undefined`, for the control API to take.
 *
 * @example
 * ```ts
 * import { consoleHandler } from "./mod.ts";
 * const handler = consoleHandler();
 * const answer = handler(new Request("http://127.0.0.1:9100/"));
 * console.log(answer?.status, answer?.headers.get("location")); // 302 /console/
 * ```
 */
export function consoleHandler(options: ConsoleOptions = {}): ConsoleHandler {
  const assets = options.assets ?? ASSETS;
  return (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    const path = new URL(request.url).pathname;
    if (path === "/" || path === "/console") return redirect(CONSOLE_PATH);
    if (!path.startsWith(CONSOLE_PATH)) return undefined;
    const name = path === CONSOLE_PATH ? "index.html" : path.slice(CONSOLE_PATH.length);
    const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
    if (!asset) return notFound();
    const headers = new Headers({
      ...SECURITY_HEADERS,
      "content-type": asset.type,
      etag: asset.etag,
      "cache-control": "no-cache",
    });
    if (matches(request.headers.get("if-none-match"), asset.etag)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(request.method === "HEAD" ? null : asset.body, { status: 200, headers });
  };
}

function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value === etag || value === `W/${etag}`;
  });
}

function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { ...SECURITY_HEADERS, location } });
}

function notFound(): Response {
  return new Response("Not found\n", {
    status: 404,
    headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" },
  });
}

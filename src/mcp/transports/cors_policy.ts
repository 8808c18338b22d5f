/**
 * CORS for the MCP HTTP handler. It wraps everything else (Host/Origin checks, the auth gate, the
 * transports), so preflights are answered without credentials and error answers such as 401 still
 * carry the CORS headers a browser needs to read them.
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import { json } from "./_http.ts";

/** CORS settings for `toFetchHandler`. */
export interface CorsOptions {
  /** Origins allowed to read answers (`["*"]` allows any, without credentials). @default [] */
  allowOrigins?: string[];
  /** Methods announced in preflights. @default ["GET", "POST", "DELETE", "OPTIONS"] */
  allowMethods?: string[];
  /**
   * Request headers announced in preflights.
   * @default ["Content-Type", "Authorization", "x-api-key", "mcp-session-id", "mcp-protocol-version", "last-event-id"]
   */
  allowHeaders?: string[];
  /** Response headers scripts may read. @default ["mcp-session-id"] */
  exposeHeaders?: string[];
  /** Send `Access-Control-Allow-Credentials: true` (not allowed with `["*"]`). @default false */
  allowCredentials?: boolean;
  /** Seconds a preflight may be cached. @default 600 */
  maxAge?: number;
}

const KEYS = {
  allowOrigins: true,
  allowMethods: true,
  allowHeaders: true,
  exposeHeaders: true,
  allowCredentials: true,
  maxAge: true,
} satisfies Record<keyof CorsOptions, true>;

function stringList(value: unknown, fallback: string[], what: string): string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && v !== "")) {
    throw new TypeError(`cors: ${what} must be a list of non-empty strings`);
  }
  return [...value];
}

function normalOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, "");
}

/** Applies {@linkcode CorsOptions} to requests and answers. */
export class CorsPolicy {
  /** Origins listed explicitly (normalised; without `*`). */
  readonly origins: readonly string[];
  #any: boolean;
  #methods: string;
  #headers: string;
  #expose: string;
  #credentials: boolean;
  #maxAge: number;

  /** A policy; a TypeError for unknown keys, bad values, or `["*"]` together with credentials. */
  constructor(options: CorsOptions) {
    checkOptionKeys(options, { owner: "cors", keys: KEYS });
    const origins = stringList(options.allowOrigins, [], "allowOrigins");
    this.#any = origins.includes("*");
    this.#credentials = options.allowCredentials ?? false;
    if (typeof this.#credentials !== "boolean") {
      throw new TypeError("cors: allowCredentials must be a boolean");
    }
    if (this.#any && this.#credentials) {
      throw new TypeError('cors: allowOrigins ["*"] cannot be combined with allowCredentials');
    }
    this.origins = origins.filter((o) => o !== "*").map(normalOrigin);
    this.#methods = stringList(options.allowMethods, ["GET", "POST", "DELETE", "OPTIONS"], "allowMethods")
      .join(", ");
    this.#headers = stringList(options.allowHeaders, [
      "Content-Type",
      "Authorization",
      "x-api-key",
      "mcp-session-id",
      "mcp-protocol-version",
      "last-event-id",
    ], "allowHeaders").join(", ");
    this.#expose = stringList(options.exposeHeaders, ["mcp-session-id"], "exposeHeaders").join(", ");
    this.#maxAge = options.maxAge ?? 600;
    if (!Number.isInteger(this.#maxAge) || this.#maxAge < 0) {
      throw new TypeError("cors: maxAge must be an integer >= 0");
    }
  }

  /** Whether `origin` may read answers. */
  allows(origin: string): boolean {
    return this.#any || this.origins.includes(normalOrigin(origin));
  }

  #originHeaders(origin: string, headers: Headers): void {
    if (this.#any) {
      headers.set("access-control-allow-origin", "*");
    } else {
      headers.set("access-control-allow-origin", origin);
      headers.append("vary", "Origin");
    }
    if (this.#credentials) headers.set("access-control-allow-credentials", "true");
  }

  /** The answer to a CORS preflight, or undefined when `request` is not one. */
  preflight(request: Request): Response | undefined {
    const origin = request.headers.get("origin");
    if (request.method !== "OPTIONS" || origin === null) return undefined;
    if (request.headers.get("access-control-request-method") === null) return undefined;
    if (!this.allows(origin)) return json(403, { error: "forbidden", message: "CORS origin not allowed" });
    const headers = new Headers({
      "access-control-allow-methods": this.#methods,
      "access-control-allow-headers": this.#headers,
      "access-control-max-age": String(this.#maxAge),
    });
    this.#originHeaders(origin, headers);
    return new Response(null, { status: 204, headers });
  }

  /** `response` with CORS headers added when the request came from an allowed origin. */
  apply(request: Request, response: Response): Response {
    const origin = request.headers.get("origin");
    if (origin === null || !this.allows(origin)) return response;
    const headers = new Headers(response.headers);
    this.#originHeaders(origin, headers);
    if (this.#expose !== "") headers.set("access-control-expose-headers", this.#expose);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

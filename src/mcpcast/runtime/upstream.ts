/**
 * The generated server's client of the upstream API: one {@linkcode Upstream.call} per tool call
 * picks the route, builds the request, presents the credential of the auth mode, enforces the
 * wall-clock limit and the response byte cap, and maps every failure to a stable tool error code.
 *
 * | Code | Retryable | When |
 * |---|---|---|
 * | `VALIDATION_ERROR` | no | an argument the tool does not take, or a string that breaks its format (see `argument_check.ts`); no route has its required arguments; a path parameter is not one segment |
 * | `UPSTREAM_AUTH_MISSING` | no | the auth mode's credential is absent |
 * | `UPSTREAM_AUTH_INVALID` | no | the credential is not printable ASCII, or still a `<placeholder>` |
 * | `UPSTREAM_INSECURE` | no | a credential would travel over plain http to a host that is not loopback |
 * | `UPSTREAM_TIMEOUT` | yes | no complete answer within the time limit (`details.timeout`) |
 * | `UPSTREAM_UNREACHABLE` | yes | connection or transport failure (the message names only the error type) |
 * | `UPSTREAM_ERROR` | 5xx, 408, 425, 429 | HTTP status 400 or above (`details.status`, `details.retry_after_seconds`), or JSON that does not parse |
 * | `UPSTREAM_RESPONSE_TOO_LARGE` | no | the body is over the byte cap (`details.status`, `details.limit`) |
 *
 * @module
 */

import { ToolError } from "../../tool_error.ts";
import { isLoopbackHost } from "../../_util/net.ts";
import { hostEnv } from "../../_util/host_env.ts";
import { McpcastError } from "../errors.ts";
import type { ApiPlan, ToolPlan } from "../plan/mod.ts";
import type { EnvLookup } from "../types.ts";
import {
  DEFAULT_ERROR_EXCERPT_CHARS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_SECONDS,
} from "./config.ts";
import { type CredentialSource, upstreamCredentials } from "./credential.ts";
import { buildRequestParts } from "./request_build.ts";
import { checkArguments } from "./argument_check.ts";
import { percentEncode } from "./serialize.ts"; // slice C
import { readLimitedBody, responseResult } from "./response_read.ts";
import { callValues, selectRoute } from "./route_select.ts";

/** The HTTP client the upstream is called with (`globalThis.fetch`, or a fake in tests). */
export type UpstreamFetch = (request: Request) => Promise<Response>;

/** Options for {@linkcode Upstream}. */
export interface UpstreamOptions {
  /** HTTP client. @default globalThis.fetch */
  fetch?: UpstreamFetch;
  /** Where credentials are read from, on every call. @default the process environment */
  env?: EnvLookup;
  /** The plan's tools, for {@linkcode Upstream.tool} and {@linkcode Upstream.pick}. @default [] */
  tools?: readonly ToolPlan[];
  /** Seconds per call, connect to last byte. @default 30 */
  timeoutSeconds?: number;
  /** Largest response body accepted, in bytes. @default 1048576 */
  maxResponseBytes?: number;
  /** Characters of an upstream error body quoted in errors (0 quotes none). @default 500 */
  errorExcerptChars?: number;
  /** Let a credential travel over plain http to a host that is not loopback. @default false */
  allowInsecureHttp?: boolean;
  /** Base URL overriding the plan's (`MCPCAST_BASE_URL`); a route's own `base_url` still wins. */
  baseUrl?: string;
}

/** What a call reads from its request context: headers, the authenticated caller, cancellation. */
export interface UpstreamCallContext extends CredentialSource {
  /** Aborted when the client cancels or the call times out. */
  readonly signal?: AbortSignal;
}

/**
 * `work()`'s outcome, or a rejection as soon as `signal` aborts, even when the HTTP client ignores the
 * signal (a stalled fake, a body that never ends).
 */
async function untilAborted<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  const running = work();
  running.catch(() => undefined);
  try {
    return await Promise.race([running, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

/** Calls the upstream API on behalf of the tools of one plan. */
export class Upstream {
  /** The API section of the plan. */
  readonly api: ApiPlan;
  #fetch: UpstreamFetch;
  #env: EnvLookup;
  #tools: ReadonlyMap<string, ToolPlan>;
  #timeoutMs: number;
  #limit: number;
  #excerptChars: number;
  #allowInsecure: boolean;
  #baseUrl?: string;

  /** A client for `api`; options are validated (a TypeError names the bad one). */
  constructor(api: ApiPlan, options: UpstreamOptions = {}) {
    this.api = api;
    this.#fetch = options.fetch ?? ((request) => globalThis.fetch(request));
    this.#env = options.env ?? hostEnv;
    this.#tools = new Map((options.tools ?? []).map((tool) => [tool.name, tool]));
    const timeout = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    if (!(timeout > 0)) throw new TypeError("Upstream: timeoutSeconds must be above 0");
    this.#timeoutMs = timeout * 1000;
    this.#limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!(this.#limit > 0)) throw new TypeError("Upstream: maxResponseBytes must be above 0");
    this.#excerptChars = options.errorExcerptChars ?? DEFAULT_ERROR_EXCERPT_CHARS;
    this.#allowInsecure = options.allowInsecureHttp ?? false;
    this.#baseUrl = options.baseUrl;
  }

  /**
   * The plan's tool called `name`.
   *
   * @throws {McpcastError} when the plan has no such tool (a tools module out of step with the plan).
   */
  tool(name: string): ToolPlan {
    const tool = this.#tools.get(name);
    if (tool === undefined) {
      throw new McpcastError(
        `tool '${name}' is registered by a tools module but is not in mcpcast.plan.yaml; add it to the ` +
          "plan, or regenerate the project",
      );
    }
    return tool;
  }

  /** The plan's tools called `names`, by name (see {@linkcode Upstream.tool}). */
  pick<const N extends string>(names: readonly N[]): { readonly [K in N]: ToolPlan } {
    const out = {} as { [K in N]: ToolPlan };
    for (const name of names) Object.defineProperty(out, name, { value: this.tool(name), enumerable: true });
    return out;
  }

  /**
   * The base URL a route is called under: the route's own (an operation-level server, edited in the
   * plan), else the override, else the API's.
   */
  baseUrlFor(route: { base_url?: string }): string {
    return route.base_url ?? this.#baseUrl ?? this.api.base_url;
  }

  /**
   * Calls `tool` with the agent's `args`: the first route whose required parameters were supplied
   * (hidden parameters are sent with their default). JSON answers come back as JSON values, other
   * text as text, an empty body as `{status}`.
   *
   * @throws {ToolError} with one of the codes in the module's table.
   */
  async call(
    tool: ToolPlan,
    args: Readonly<Record<string, unknown>>,
    ctx: UpstreamCallContext = {},
  ): Promise<unknown> {
    checkArguments(tool, args); // slice B (issue 15, item 8): unknown arguments and formats
    const values = callValues(tool, args);
    const route = selectRoute(tool, values);
    const parts = buildRequestParts(route, values, this.baseUrlFor(route));
    const credentials = upstreamCredentials(this.api, ctx, { env: this.#env, route });
    const { url } = parts;
    if (
      credentials.length > 0 && url.protocol === "http:" && !isLoopbackHost(url.hostname) &&
      !this.#allowInsecure
    ) {
      throw new ToolError(
        "UPSTREAM_INSECURE",
        `Refusing to send the upstream credential over plain http to ${url.hostname}`,
        {
          suggestion:
            "Use an https base URL (MCPCAST_BASE_URL), or set MCPCAST_ALLOW_INSECURE_HTTP=1 on a trusted network",
        },
      );
    }
    // slice C: header and cookie parameters first; the runtime's own headers and the credential win.
    const headers = new Headers(parts.headers);
    headers.set("accept", "application/json, */*;q=0.5");
    if (parts.body !== undefined) headers.set("content-type", parts.body.contentType);
    const cookies: string[] = [];
    for (const credential of credentials) {
      // slice C: a query credential is appended as text, so the styled query (commas, allowReserved) is not
      // re-encoded by searchParams.
      if (credential.location === "query") {
        const pair = `${percentEncode(credential.name)}=${percentEncode(credential.value)}`;
        url.search = url.search.length > 1 ? `${url.search}&${pair}` : pair;
      } else if (credential.location === "header") headers.set(credential.name, credential.value);
      else cookies.push(`${credential.name}=${credential.value}`);
    }
    // Cookie parameters (slice C) and cookie credentials (slice D) travel together.
    if (cookies.length > 0) {
      headers.set("cookie", [headers.get("cookie"), ...cookies].filter(Boolean).join("; "));
    }
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), this.#timeoutMs);
    const signal = ctx.signal ? AbortSignal.any([timer.signal, ctx.signal]) : timer.signal;
    try {
      const request = new Request(url, { method: route.method, headers, body: parts.body?.text, signal });
      return await untilAborted(signal, async () => {
        const response = await this.#fetch(request);
        const bytes = await readLimitedBody(response, this.#limit);
        return responseResult(response, bytes, {
          method: route.method,
          path: route.path,
          limit: this.#limit,
          excerptChars: this.#excerptChars,
          credential: credentials,
        });
      });
    } catch (error) {
      throw this.#failure(error, timer.signal, ctx.signal);
    } finally {
      clearTimeout(timeout);
    }
  }

  #failure(error: unknown, timer: AbortSignal, cancelled: AbortSignal | undefined): unknown {
    if (error instanceof ToolError) return error;
    if (timer.aborted) {
      const seconds = this.#timeoutMs / 1000;
      return new ToolError("UPSTREAM_TIMEOUT", `The upstream API did not answer within ${seconds}s`, {
        retryable: true,
        suggestion: "Retry later, or raise MCPCAST_TIMEOUT",
        details: { timeout: seconds },
      });
    }
    if (cancelled?.aborted) {
      return cancelled.reason instanceof ToolError
        ? cancelled.reason
        : new ToolError("CANCELLED", "The request was cancelled.");
    }
    const kind = error instanceof Error ? error.name : typeof error;
    return new ToolError("UPSTREAM_UNREACHABLE", `Could not reach the upstream API (${kind})`, {
      retryable: true,
      suggestion: "Check that the upstream is up and its base URL (MCPCAST_BASE_URL) is right",
    });
  }
}

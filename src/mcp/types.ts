/**
 * The small contracts the framework's parts share: middleware, guards, auth providers, and the
 * protocol session a call can talk back through.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "./request_context.ts";

/** Runs the rest of the chain (inner middleware, guards, then the handler) and returns its raw result. */
export type Next = () => Promise<unknown>;

/**
 * A middleware: wraps every tool call (and resource read and prompt get). The first middleware added
 * runs outermost. Return `next()`'s value (or a replacement), or throw a {@linkcode ToolError}.
 *
 * @example
 * ```ts
 * import type { Middleware } from "@agentry/agentry/mcp";
 * const stamp: Middleware = async (ctx, next) => {
 *   ctx.state.started = Date.now();
 *   return await next();
 * };
 * ```
 */
export type Middleware = (ctx: RequestContext, next: Next) => Promise<unknown>;

/** A check run just before the handler; `false` refuses the call with `ACCESS_DENIED`. */
export interface Guard {
  /** Name reported in `details.guard`. @default the class name */
  readonly name?: string;
  /** Whether the call may proceed. */
  check(ctx: RequestContext): boolean | Promise<boolean>;
  /** The denial message; must not reveal what would have been allowed. */
  describeDenial?(ctx: RequestContext): string;
}

/** What an auth provider established about a caller. */
export interface Identity {
  /** Caller id. */
  clientId: string;
  /** Roles granted by the provider (JWT `roles` claim or API-key config). */
  roles?: string[];
  /** Tenant from the credential's configuration (API keys); JWTs use the tenant claim instead. */
  tenantId?: string;
  /** Verified claims, for JWT-based providers. */
  claims?: Record<string, unknown>;
}

/** Authenticates a request from its (lower-cased) headers. */
export interface AuthProvider {
  /** The caller's identity; throws a `ToolError` with code `AUTHENTICATION_ERROR` when refused. */
  authenticate(meta: Readonly<Record<string, string>>): Promise<Identity>;
  /**
   * Whether a raw credential (bearer token or API key) is valid; used by the HTTP gate that answers
   * 401 before the MCP layer when `requireAuth` is set.
   */
  verifyToken?(token: string): Promise<boolean>;
  /** The header this provider reads, lower-cased (e.g. `authorization`, `x-api-key`). */
  readonly header: string;
}

/** Options for a request the server sends to the client during a call. */
export interface ClientRequestOptions {
  /** Give up after this many milliseconds (2025-era sessions; a 2026-07-28 request does not wait). @default 60000 */
  timeoutMs?: number;
  /**
   * The key the request goes under in a 2026-07-28 `input_required` result, and its answer comes
   * back under; unique within one call. A 2025-era session ignores it.
   * @default the call's position: `e1`, `e2`, ... for elicitations, `s1`, ... for sampling, `r1`, ... for roots
   */
  key?: string;
}

/** A request a call can make of its client. */
export type ClientMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/**
 * The protocol session a call arrived on: progress, log messages, and requests back to the client
 * (elicitation, sampling, roots). On a 2025-era session the requests go to the client at once; calls
 * without a live session (stateless 2025 HTTP) refuse them. On a 2026-07-28 request (`era: "modern"`)
 * they ride on `input_required` results: a missing answer throws an `InputRequiredSignal` and the call
 * runs again when the client sends its answers.
 */
export interface CallSession {
  /** MCP session id, when the transport has sessions. */
  readonly id?: string;
  /** `"legacy"`: an `initialize`d 2025-era session (or stateless 2025 HTTP); `"modern"`: a 2026-07-28 request. */
  readonly era: "legacy" | "modern";
  /** Whether the server can send requests to the client (elicitation, sampling, roots). */
  readonly live: boolean;
  /** Whether the client declared the capability `method` needs (and the session can carry it). */
  supports(method: ClientMethod): boolean;
  /** Sends `notifications/progress` when the request carried a progress token; otherwise does nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a `notifications/message` log entry, if the client's log level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's user to fill a form (`elicitation/create`). */
  elicit(params: ElicitRequestFormParams, options?: ClientRequestOptions): Promise<ElicitResult>;
  /** Asks the client's model for a completion (`sampling/createMessage`). */
  sample(params: CreateMessageRequestParams, options?: ClientRequestOptions): Promise<CreateMessageResult>;
  /** Asks the client for its roots (`roots/list`). */
  listRoots(options?: ClientRequestOptions): Promise<ListRootsResult>;
  /**
   * On a 2026-07-28 request: what earlier rounds of this call carried in its signed `requestState`, by
   * key (the client's answers, and values middleware added to the `answers` of an `InputRequiredSignal`
   * it rethrew, e.g. the approval gate's request id). Absent or empty on a first round and on 2025-era
   * sessions. Never this round's `inputResponses`: only what the server itself signed.
   */
  readonly carried?: Readonly<Record<string, unknown>>;
}

/**
 * The per-call pipeline: look up, validate, build the context, run the compiled middleware chain
 * around guards and the handler (with the item's own timeout), then serialise or map errors.
 *
 * Order for a tool call: unknown tool → `TOOL_NOT_FOUND`; arguments validated → `VALIDATION_ERROR`;
 * server middleware (first added outermost), a per-tool concurrency limiter placed just before the
 * first circuit breaker when any tool declares `maxConcurrent`, the declared-rate-limit middleware
 * for items with `rateLimit`, router middleware; then guards and handler, bounded by `timeout`.
 *
 * An `InputRequiredSignal` (a call on a 2026-07-28 request waiting for input from its client) passes
 * through untouched: it is not a tool error, not logged as a failure, and reaches the protocol binding,
 * which answers `input_required`.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../log.ts";
import { describeError } from "../_util/errors.ts";
import { type Chain, composeChain, middlewareRole } from "./chain.ts";
import type { ItemDefinition, ToolDefinition } from "./definitions.ts";
import { errorResult, internalError, ToolError } from "./errors.ts";
import { isInputRequired } from "./input_required.ts";
import { isAuthMiddleware } from "./auth/auth_middleware.ts";
import { runGuards } from "./guards.ts";
import { declaredRateLimitMiddleware } from "./middleware/rate_limit.ts";
import { perToolConcurrencyLimiter } from "./middleware/concurrency.ts";
import { withTimeout } from "./middleware/timeout.ts";
import { RequestContext, type RequestType } from "./request_context.ts";
import { ToolResponse, toToolResult } from "./results.ts";
import type { CallSession, Middleware } from "./types.ts";

/** Where a request came from. */
export interface CallInfo {
  /** Lower-cased headers of the carrying HTTP request (empty on stdio). */
  meta: Readonly<Record<string, string>>;
  /** The protocol session. */
  session: CallSession;
  /** Aborted when the client cancels. */
  signal: AbortSignal;
  /** Caller IP address. */
  ipAddress?: string;
}

/** What the pipeline needs from its server. */
export interface PipelineHost {
  /** Server name. */
  readonly name: string;
  /** Server logger. */
  readonly logger: Logger;
  /** Server middleware, outermost first. */
  readonly middleware: readonly Middleware[];
  /** Seconds a cancelled handler may keep running before the call is settled. */
  readonly cancelGracePeriod: number;
  /** Timeout in seconds for items that declare none. */
  readonly defaultTimeout?: number;
}

// Request ids: 12 hex characters, a random per-process prefix and a counter (unique, cheap, not secret).
const ID_PREFIX = crypto.getRandomValues(new Uint32Array(1))[0].toString(16).padStart(8, "0").slice(0, 6);
let idCounter = 0;

function requestId(): string {
  idCounter = (idCounter + 1) % 0x1000000;
  return ID_PREFIX + idCounter.toString(16).padStart(6, "0");
}

function same(value: unknown): unknown {
  return value;
}

function rethrow(error: unknown): never {
  throw error;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** `value`, after noting a {@linkcode ToolResponse}'s metadata on the context. */
function responded(ctx: RequestContext, value: unknown): unknown {
  if (value instanceof ToolResponse) ctx.state.response_metadata = value.metadata;
  return value;
}

/** Runs requests through compiled chains; one per server. */
export class Pipeline {
  #host: PipelineHost;
  #chains = new WeakMap<ItemDefinition, Chain>();
  #concurrency?: Middleware;
  #rateLimit?: Middleware;

  /** A pipeline for `host`. */
  constructor(host: PipelineHost) {
    this.#host = host;
  }

  /** Forgets compiled chains (after server middleware changes). */
  invalidate(): void {
    this.#chains = new WeakMap();
  }

  #chain(definition: ItemDefinition): Chain {
    let chain = this.#chains.get(definition);
    if (chain) return chain;
    const list = [...this.#host.middleware];
    if (definition.kind === "tool" && definition.maxConcurrent !== undefined) {
      const limiter = this.#concurrency ??= perToolConcurrencyLimiter();
      const breaker = list.findIndex((m) => middlewareRole(m) === "circuit_breaker");
      list.splice(breaker === -1 ? list.length : breaker, 0, limiter);
    }
    if (definition.rateLimit !== undefined) list.push(this.#rateLimit ??= declaredRateLimitMiddleware());
    list.push(...definition.middleware);
    chain = this.#unenforced(definition, list) ?? composeChain(list);
    this.#chains.set(definition, chain);
    return chain;
  }

  /**
   * A chain that refuses every call when a declared protection has no middleware to enforce it (items
   * registered after `assertReady` ran): `auth` without an auth middleware, approval without a gate.
   */
  #unenforced(definition: ItemDefinition, list: readonly Middleware[]): Chain | undefined {
    const missing = definition.auth && !list.some((m) => isAuthMiddleware(m) || middlewareRole(m) === "auth")
      ? new ToolError("AUTHENTICATION_ERROR", "Authentication required")
      : definition.kind === "tool" && definition.requiresApproval &&
          !list.some((m) => middlewareRole(m) === "approval")
      ? new ToolError("APPROVAL_DENIED", `Approval denied for tool '${definition.name}'`)
      : undefined;
    if (!missing) return undefined;
    this.#host.logger.error("refusing calls: a declared protection has no middleware to enforce it", {
      item: definition.name,
      code: missing.code,
    });
    return () => Promise.reject(missing);
  }

  /** A context for one request. */
  context(
    definition: ItemDefinition,
    requestType: RequestType,
    args: Record<string, unknown>,
    info: CallInfo & { resourceUri?: string },
  ): RequestContext {
    return new RequestContext({
      serverName: this.#host.name,
      definition,
      requestType,
      requestId: info.meta["x-request-id"] || requestId(),
      meta: info.meta,
      arguments: args,
      session: info.session,
      signal: info.signal,
      logger: this.#host.logger,
      ipAddress: info.ipAddress,
      resourceUri: info.resourceUri,
    });
  }

  /**
   * Runs `ctx` through its chain to `handler`, with guards and the item's timeout. Not async, and a
   * handler that answers at once is not awaited: every turn saved here is one the answer does not wait.
   */
  run(ctx: RequestContext, handler: () => unknown): Promise<unknown> {
    return this.#cancellable(ctx, this.#start(ctx, handler), same, rethrow);
  }

  /** The chain run for `ctx` (a rejection for a cancelled request or a refused chain). */
  #start(ctx: RequestContext, handler: () => unknown): Promise<unknown> {
    const definition = ctx.definition;
    const call = (): Promise<unknown> => {
      let value: unknown;
      try {
        value = handler();
      } catch (error) {
        return Promise.reject(error);
      }
      if (isThenable(value)) return Promise.resolve(value).then((settled) => responded(ctx, settled));
      return Promise.resolve(responded(ctx, value));
    };
    const inner = definition.guards.length === 0 && definition.timeout === undefined &&
        this.#host.defaultTimeout === undefined
      ? call
      : () =>
        this.#bounded(ctx, async () => {
          await runGuards(ctx, definition.guards);
          return await call();
        });
    try {
      const chain = this.#chain(definition);
      if (ctx.cancelled.aborted) throw new ToolError("CANCELLED", "The request was cancelled.");
      return chain(ctx, inner);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async #bounded(ctx: RequestContext, step: () => Promise<unknown>): Promise<unknown> {
    const seconds = ctx.definition.timeout ?? this.#host.defaultTimeout;
    return seconds === undefined ? await step() : await withTimeout(step, { seconds, ctx });
  }

  /**
   * `running` settled through `onValue` / `onError` (one promise for both steps), or `onError` of a
   * CANCELLED failure when the client cancelled and the handler is still running `cancelGracePeriod`
   * seconds later (its slot in the chain is then released).
   */
  #cancellable<T>(
    ctx: RequestContext,
    running: Promise<unknown>,
    onValue: (value: unknown) => T,
    onError: (error: unknown) => T,
  ): Promise<T> {
    const cancelled = ctx.cancelled;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let done = false;
      const finish = (step: (input: unknown) => T, input: unknown) => {
        if (done) return;
        done = true;
        cancelled.removeEventListener("abort", onAbort);
        clearTimeout(timer);
        try {
          resolve(step(input));
        } catch (error) {
          reject(error);
        }
      };
      const onAbort = () => {
        timer = setTimeout(() => {
          ctx.logger.warning("handler kept running after cancellation", {
            item: ctx.name,
            request_id: ctx.requestId,
          });
          finish(onError, new ToolError("CANCELLED", "The request was cancelled."));
        }, this.#host.cancelGracePeriod * 1000);
      };
      cancelled.addEventListener("abort", onAbort, { once: true });
      running.then((value) => finish(onValue, value), (error) => finish(onError, error));
    });
  }

  /**
   * Runs a tool call end to end and answers with a result (errors as `isError` results); an
   * `InputRequiredSignal` rejects it instead, for the binding to answer `input_required`.
   */
  callTool(definition: ToolDefinition, rawArgs: unknown, info: CallInfo): Promise<CallToolResult> {
    let ctx: RequestContext;
    let value: unknown;
    try {
      const checked = definition.input.validate(rawArgs);
      if (!checked.ok) {
        return Promise.resolve(errorResult(
          new ToolError("VALIDATION_ERROR", `Invalid arguments for tool '${definition.name}'`, {
            retryable: true,
            suggestion: "Fix the arguments named in details.field_errors and call again",
            details: { field_errors: checked.fieldErrors },
          }),
        ));
      }
      ctx = this.context(definition, "tool", checked.value, info);
      value = checked.value;
    } catch (error) {
      return Promise.reject(error);
    }
    const failed = (error: unknown) => errorResult(this.toToolError(error, ctx));
    const running = this.#start(ctx, () => definition.handler(value as never, ctx));
    return this.#cancellable(ctx, running, (result) => {
      try {
        return toToolResult(result, ctx);
      } catch (error) {
        return failed(error);
      }
    }, failed);
  }

  /**
   * `error` as a client-safe ToolError; unexpected errors are logged with their text. An
   * `InputRequiredSignal` is no failure: it is rethrown as it is, for the binding.
   */
  toToolError(error: unknown, ctx: RequestContext): ToolError {
    if (error instanceof ToolError) return error;
    if (isInputRequired(error)) throw error;
    if (ctx.signal.aborted && error === ctx.signal.reason) {
      return ctx.signal.reason instanceof ToolError
        ? ctx.signal.reason
        : new ToolError("CANCELLED", "The request was cancelled.");
    }
    ctx.logger.error(`${ctx.requestType} handler failed`, {
      item: ctx.name,
      request_id: ctx.requestId,
      error: describeError(error),
    });
    return internalError(error);
  }
}

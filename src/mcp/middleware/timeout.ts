/**
 * Timeouts: a middleware bounding everything after it in the chain, and the helper the pipeline uses to
 * enforce an item's own `timeout` even without the middleware.
 *
 * @module
 */

import { ToolError } from "../errors.ts";
import type { RequestContext } from "../request_context.ts";
import type { Middleware } from "../types.ts";
import { checkNumber, MIDDLEWARE_WORDING } from "./_options.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { type Deadline, DeadlineSweep } from "./_deadline_sweep.ts";

/** Options for {@linkcode timeoutMiddleware}. */
export interface TimeoutOptions {
  /** Seconds allowed when the item declares no `timeout` of its own. @default 30 */
  defaultTimeout?: number;
}

const TIMEOUT_KEYS = { defaultTimeout: true } satisfies Record<keyof TimeoutOptions, true>;

// setTimeout fires at once for delays past 2^31 - 1 ms; such bounds are treated as "no bound".
const MAX_DELAY_MS = 2 ** 31 - 1;

/** The retryable `TIMEOUT` error for `ctx`'s item after `seconds`. */
function timeoutError(ctx: RequestContext, seconds: number): ToolError {
  const kind = ctx.requestType.charAt(0).toUpperCase() + ctx.requestType.slice(1);
  return new ToolError("TIMEOUT", `${kind} '${ctx.name}' timed out after ${seconds}s`, {
    retryable: true,
    suggestion: "Retry later or continue without this tool",
  });
}

/**
 * Runs `fn` and answers its result, or throws a retryable `TIMEOUT` {@linkcode ToolError} when it takes
 * longer than `seconds`; then `ctx.signal` is aborted so the work can stop. No timer is left behind once
 * the work has ended (pending bounds share one timer).
 *
 * @example
 * ```ts
 * import { createToolServer, withTimeout } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * server.use((ctx, next) => withTimeout(next, { seconds: 5, ctx })); // what timeoutMiddleware does
 * ```
 */
export function withTimeout<T>(
  fn: () => Promise<T>,
  options: { seconds: number; ctx: RequestContext },
): Promise<T> {
  return bounded(SHARED, fn, options);
}

const SHARED = new DeadlineSweep();

function bounded<T>(
  sweep: DeadlineSweep,
  fn: () => Promise<T>,
  options: { seconds: number; ctx: RequestContext },
): Promise<T> {
  const { seconds, ctx } = options;
  try {
    checkNumber("withTimeout", { name: "seconds", value: seconds });
  } catch (error) {
    return Promise.reject(error);
  }
  const ms = seconds * 1000;
  let running: Promise<T>;
  try {
    running = fn();
  } catch (error) {
    return Promise.reject(error);
  }
  if (ms > MAX_DELAY_MS) return running;
  return new Promise<T>((resolve, reject) => {
    const deadline: Deadline = {
      deadline: Date.now() + ms,
      fire: () => {
        const error = timeoutError(ctx, seconds);
        ctx.abort(error);
        reject(error);
      },
    };
    sweep.add(deadline);
    running.then((value) => {
      sweep.remove(deadline);
      resolve(value);
    }, (error) => {
      sweep.remove(deadline);
      reject(error);
    });
  });
}

/**
 * Bounds everything after it in the chain by the item's `timeout`, else `defaultTimeout` seconds;
 * on expiry the call fails with a retryable `TIMEOUT`.
 *
 * @example
 * ```ts
 * import { createToolServer, timeoutMiddleware } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * server.use(timeoutMiddleware({ defaultTimeout: 10 }));
 * ```
 */
export function timeoutMiddleware(options: TimeoutOptions = {}): Middleware {
  checkOptionKeys(options, { owner: "timeoutMiddleware", keys: TIMEOUT_KEYS, ...MIDDLEWARE_WORDING });
  const { defaultTimeout = 30 } = options;
  checkNumber("timeoutMiddleware", { name: "defaultTimeout", value: defaultTimeout });
  const sweep = new DeadlineSweep();
  return (ctx, next) => bounded(sweep, next, { seconds: ctx.definition.timeout ?? defaultTimeout, ctx });
}

/**
 * Structured call logging: one record when a call starts and one when it ends.
 *
 * @module
 */

import { LOG_LEVELS } from "../../log.ts";
import { ToolError } from "../errors.ts";
import { isInputRequired } from "../input_required.ts";
import type { Middleware } from "../types.ts";
import { MIDDLEWARE_WORDING } from "./_options.ts";
import { checkOptionKeys } from "../../_util/option_keys.ts";
import { pendingMethods } from "./pending_inputs.ts";

/** Options for {@linkcode structuredLogging}. */
export interface StructuredLoggingOptions {
  /** Level of both records. @default "info" */
  level?: "debug" | "info" | "warning" | "error";
  /** Add the validated arguments to the start record. @default false */
  includeArgs?: boolean;
}

const STRUCTURED_LOGGING_KEYS = { level: true, includeArgs: true } satisfies Record<
  keyof StructuredLoggingOptions,
  true
>;

/**
 * Logs `tool_call_start` (tool, request_id, client_id when known, args with `includeArgs`) and
 * `tool_call_end` (tool, request_id, client_id, duration_ms, status `ok`|`error`, and on failure
 * `error: "<code or error name>: <message>"`) through the request's logger. A round of a 2026-07-28
 * call that ends asking its client for input ends with status `input_required` and `pending` (the
 * pending keys and their methods, e.g. `{ e1: "elicitation/create" }`); the retried round logs its own
 * start and end. Resource reads and prompt gets add `request_type`. Errors are rethrown unchanged.
 *
 * @example
 * ```ts
 * import { createToolServer, structuredLogging } from "@agentry/agentry/mcp";
 * const server = createToolServer({ name: "orders" });
 * server.use(structuredLogging({ level: "debug", includeArgs: true }));
 * ```
 */
export function structuredLogging(options: StructuredLoggingOptions = {}): Middleware {
  checkOptionKeys(options, {
    owner: "structuredLogging",
    keys: STRUCTURED_LOGGING_KEYS,
    ...MIDDLEWARE_WORDING,
  });
  const { level = "info", includeArgs = false } = options;
  if (!LOG_LEVELS.includes(level)) {
    throw new TypeError(
      `structuredLogging: level must be one of ${LOG_LEVELS.join(", ")}, got ${String(level)}`,
    );
  }
  return async (ctx, next) => {
    if (!ctx.logger.enabled(level)) return await next();
    const base: Record<string, unknown> = { tool: ctx.name, request_id: ctx.requestId };
    if (ctx.requestType !== "tool") base.request_type = ctx.requestType;
    const start: Record<string, unknown> = { ...base };
    if (ctx.clientId !== undefined) start.client_id = ctx.clientId;
    if (includeArgs) start.args = ctx.arguments;
    ctx.logger.log(level, "tool_call_start", start);
    const started = performance.now();
    const end = () => ({
      ...base,
      client_id: ctx.clientId,
      duration_ms: round2(performance.now() - started),
    });
    try {
      const result = await next();
      ctx.logger.log(level, "tool_call_end", { ...end(), status: "ok" });
      return result;
    } catch (error) {
      const outcome = isInputRequired(error)
        ? { status: "input_required", pending: pendingMethods(error) }
        : { status: "error", error: describe(error) };
      ctx.logger.log(level, "tool_call_end", { ...end(), ...outcome });
      throw error;
    }
  };
}

function round2(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function describe(error: unknown): string {
  if (error instanceof ToolError) return `${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}

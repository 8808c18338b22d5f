/**
 * `startTask(ctx)`: the point in a task-supporting tool's handler from which the call runs as a task.
 *
 * @module
 */

import type { RequestContext } from "../request_context.ts";
import { TaskCallSession } from "./task_session.ts";

/**
 * Hands the rest of the call to a task, when the request can have one: a tool declared with
 * `task: "optional"` or `"required"`, called on a 2026-07-28 request whose client declared the
 * `io.modelcontextprotocol/tasks` extension. The `tools/call` then answers at once with the task
 * (`resultType: "task"`), and the handler goes on in the background: `ctx.session.progress()`
 * reports to `tasks/get`, `ctx.session.elicit()` (and sampling, roots) parks the task in
 * `input_required` until `tasks/update` answers, `tasks/cancel` aborts `ctx.signal`, and the value
 * the handler returns becomes the task's result.
 *
 * Anywhere else (no task support, a client without the extension, a 2025-era session) it resolves
 * at once and the call simply goes on in its request. Input asked before `startTask` rides on the
 * request's own `input_required` rounds, so a tool can gather input first and then become a task.
 *
 * Do not catch the `InputRequiredSignal` that input asked before `startTask` raises: its request
 * answers `input_required` whatever the handler does next, so `startTask` then throws instead of
 * making a task no client would ever learn about.
 *
 * @returns whether the call now runs as a task
 * @throws {Error} when the call already raised an `InputRequiredSignal` in this request
 *
 * @example
 * ```ts
 * import { createToolServer, startTask } from "@agentry/agentry/mcp";
 * import { z } from "zod";
 * const server = createToolServer({ name: "jobs" });
 * server.tool("rebuild", { task: "optional", input: z.object({ steps: z.number() }) }, async ({ steps }, ctx) => {
 *   await startTask(ctx);
 *   for (let step = 1; step <= steps; step++) await ctx.session.progress(step, steps, `step ${step}`);
 *   return "rebuilt";
 * });
 * ```
 */
export async function startTask(ctx: RequestContext): Promise<boolean> {
  const session = ctx.session;
  if (!(session instanceof TaskCallSession)) return false;
  session.handOff();
  return await Promise.resolve(true);
}

/**
 * Tools for the Tasks extension (`io.modelcontextprotocol/tasks`, the `tasks-*` conformance
 * scenarios): a sync-only `greet`, and task-supporting tools that hand their work to a task with
 * `startTask(ctx)`: a slow computation that reports progress, a job whose tool fails, a job that
 * crashes (a protocol-level failure), tools that wait for input inside their task, and
 * `test_tool_with_task`, which asks its input on the request first and then becomes a task.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createRouter, startTask, ToolError, type ToolRouter } from "../../src/mcp/mod.ts";

/** Resolves after `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function form(message: string, field: string, type: "string" | "boolean"): ElicitRequestFormParams {
  const property = type === "string" ? { type: "string" as const } : { type: "boolean" as const };
  return {
    message,
    requestedSchema: { type: "object", properties: { [field]: property }, required: [field] },
  };
}

function accepted(result: ElicitResult, field: string): unknown {
  return result.action === "accept" ? result.content?.[field] : undefined;
}

/** A router with the task tools. */
export function taskTools(): ToolRouter {
  const router = createRouter();

  router.tool(
    "greet",
    { description: "Greets by name (sync only)", input: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );

  router.tool(
    "slow_compute",
    {
      description: "Sleeps `seconds` in a task, reporting progress every second, then answers",
      task: "optional",
      input: z.object({ seconds: z.number().min(0).max(3600), label: z.string().default("compute") }),
    },
    async ({ seconds, label }, ctx) => {
      await startTask(ctx);
      for (let second = 1; second <= seconds; second++) {
        await sleep(1000, ctx.signal);
        await ctx.session.progress(second, seconds, `${label}: ${second}/${seconds} s`);
      }
      return `Computed ${label} in ${seconds} s`;
    },
  );

  router.tool(
    "failing_job",
    { description: "Runs about a second in a task, then reports a tool error", task: "required" },
    async (_args, ctx) => {
      await startTask(ctx);
      await sleep(1000, ctx.signal);
      throw new ToolError("TOOL_ERROR", "The job failed");
    },
  );

  router.tool(
    "protocol_error_job",
    { description: "Crashes in its task (a protocol-level failure)", task: "optional" },
    async (_args, ctx) => {
      await startTask(ctx);
      await sleep(100, ctx.signal);
      throw new Error("the job crashed");
    },
  );

  router.tool(
    "confirm_delete",
    {
      description: "In a task, asks the user to confirm deleting a file",
      task: "optional",
      input: z.object({ filename: z.string() }),
    },
    async ({ filename }, ctx) => {
      await startTask(ctx);
      const answer = await ctx.session.elicit(form(`Delete ${filename}?`, "confirm", "boolean"));
      return accepted(answer, "confirm") === true ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  );

  router.tool(
    "multi_input",
    { description: "In a task, asks two questions at once", task: "optional" },
    async (_args, ctx) => {
      await startTask(ctx);
      const [name, confirm] = await Promise.all([
        ctx.session.elicit(form("Your name?", "name", "string")),
        ctx.session.elicit(form("Proceed?", "confirm", "boolean")),
      ]);
      return `name=${String(accepted(name, "name"))} confirm=${String(accepted(confirm, "confirm"))}`;
    },
  );

  router.tool(
    "test_tool_with_task",
    { description: "Asks the user's name on the request, then greets them from a task", task: "required" },
    async (_args, ctx) => {
      const answer = await ctx.session.elicit(form("What is your name?", "name", "string"), {
        key: "user_name",
      });
      await startTask(ctx);
      return `Hello, ${String(accepted(answer, "name"))}! (from a task)`;
    },
  );

  return router;
}

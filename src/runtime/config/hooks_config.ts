/**
 * HookConfig: commands or callbacks run on process events (runs, tool calls, state changes, messages).
 * `runtime/hooks/process_hooks.ts` runs them; `docs/agents.md` ("Hooks") describes events and payloads.
 *
 * @module
 */

import { z } from "zod";
import {
  boolean,
  list,
  nonEmptyString,
  number,
  oneOf,
  type Resolved,
  strictObject,
  string,
  stringMap,
} from "./_fields.ts";
import { narrowedTo } from "../../_util/schema_proof.ts";

/**
 * An event a hook can run on: `run_start`, `run_end` (status, reply, usage), `pre_tool_call` (may refuse
 * the call), `post_tool_call` (result excerpt, is_error), `state_change` (from, to, reason) and
 * `message_received` (an inbox message or question arrived).
 */
export type HookEvent =
  | "run_start"
  | "run_end"
  | "pre_tool_call"
  | "post_tool_call"
  | "state_change"
  | "message_received";

/** Events a hook can be registered for. */
export const HOOK_EVENTS = [
  "run_start",
  "run_end",
  "pre_tool_call",
  "post_tool_call",
  "state_change",
  "message_received",
] as const satisfies readonly HookEvent[];

/** Seconds a hook may take when its config gives no `timeout`. */
export const DEFAULT_HOOK_TIMEOUT = 10;

/** What a hook receives (a command hook as JSON on stdin). Secret values read `[REDACTED]`. */
export interface HookContext {
  /** The event that fired. */
  event: HookEvent;
  /** Name of the process. */
  process: string;
  /** Id of the process. */
  process_id: string;
  /** ISO 8601 UTC time of the event. */
  timestamp: string;
  /** Facts of the event (see `docs/agents.md`, "Hooks"). */
  data: Record<string, unknown>;
}

/**
 * A programmatic hook (configs built in code only; JSON cannot carry functions). For `pre_tool_call` it
 * may answer `{decision: "deny", reason}` to refuse the call; other answers are ignored.
 */
export type HookCallback = (context: HookContext) => unknown;

/**
 * A hook that runs a program, as written: JSON context on stdin, optional JSON answer on stdout. The
 * program gets a minimal environment (PATH, HOME and a few locale basics) plus `env`, never the
 * runtime's whole environment.
 */
export interface CommandHookInput {
  /** Event it runs on: "run_start", "run_end", "pre_tool_call", "post_tool_call", "state_change" or "message_received". */
  event: HookEvent;
  /**
   * Seconds the hook may take; a command is then killed, a callback is no longer waited for. A number > 0.
   * @default 10
   */
  timeout?: number;
  /**
   * `pre_tool_call` only: when the hook fails (spawn error, exit code other than 0 and 2, timeout, bad
   * answer), refuse the call instead of letting it through.
   * @default false
   */
  fail_closed?: boolean;
  /** `pre_tool_call` and `post_tool_call` only: tool names the hook runs for (without it: every tool). */
  tools?: string[];
  /** Program to run: a non-empty command name (looked up on PATH) or path. */
  command: string;
  /** Program arguments. */
  args?: string[];
  /** Working directory of the program (without it: the runtime's working directory). */
  cwd?: string;
  /** Environment variables added to the minimal environment the program gets. May hold `${VAR}` references. */
  env?: Record<string, string>;
}

/** A hook that runs a program, resolved. */
export type CommandHook = Resolved<CommandHookInput, "args" | "cwd" | "env" | "tools">;

/** A hook that calls a function, as written (configs built in code only). */
export interface CallbackHookInput {
  /** Event it runs on: "run_start", "run_end", "pre_tool_call", "post_tool_call", "state_change" or "message_received". */
  event: HookEvent;
  /**
   * Seconds the hook may take; a command is then killed, a callback is no longer waited for. A number > 0.
   * @default 10
   */
  timeout?: number;
  /**
   * `pre_tool_call` only: when the hook fails (spawn error, exit code other than 0 and 2, timeout, bad
   * answer), refuse the call instead of letting it through.
   * @default false
   */
  fail_closed?: boolean;
  /** `pre_tool_call` and `post_tool_call` only: tool names the hook runs for (without it: every tool). */
  tools?: string[];
  /** Function to call with the {@linkcode HookContext}. */
  callback: HookCallback;
}

/** A hook that calls a function, resolved. */
export type CallbackHook = Resolved<CallbackHookInput, "tools">;

/** One entry of `hooks` as written: `event` plus either `command` (with its options) or `callback`. */
export type HookConfigInput = CommandHookInput | CallbackHookInput;

/** One entry of `hooks`, resolved. */
export type HookConfig = CommandHook | CallbackHook;

const COMMAND_ONLY = ["args", "cwd", "env"] as const;

/** One hook: `event` plus exactly one of `command` (with args, cwd, env) or `callback`. */
export const HookConfigSchema: z.ZodType<HookConfig, HookConfigInput> = narrowedTo(
  strictObject({
    event: oneOf(HOOK_EVENTS),
    command: nonEmptyString("a non-empty command").optional(),
    args: list(string(), "a list of strings").optional(),
    cwd: nonEmptyString("a directory path").optional(),
    env: stringMap().optional(),
    timeout: number({ gt: 0 }).optional(),
    fail_closed: boolean().optional(),
    tools: list(nonEmptyString(), "a list of tool names").optional(),
    callback: z.custom<HookCallback>((value) => typeof value === "function", {
      error: "a function (programmatic configs only)",
      params: { describeInput: true },
    }).optional(),
  }).superRefine((hook, ctx) => {
    if (hook.command !== undefined && hook.callback !== undefined) {
      ctx.addIssue({ code: "custom", path: ["callback"], message: "no such field when command is set" });
    } else if (hook.command === undefined && hook.callback === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["command"],
        message: "a non-empty command, or a callback function (neither was given)",
      });
    } else if (hook.callback !== undefined) {
      for (const field of COMMAND_ONLY) {
        if (hook[field] !== undefined) {
          ctx.addIssue({ code: "custom", path: [field], message: "no such field for a callback hook" });
        }
      }
    }
    // false (the default) passes everywhere, so a resolved hook parses again to itself.
    if (hook.fail_closed === true && hook.event !== "pre_tool_call") {
      ctx.addIssue({
        code: "custom",
        path: ["fail_closed"],
        message: "no such field except for pre_tool_call",
      });
    }
    if (hook.tools !== undefined && hook.event !== "pre_tool_call" && hook.event !== "post_tool_call") {
      ctx.addIssue({
        code: "custom",
        path: ["tools"],
        message: "no such field except for pre_tool_call and post_tool_call",
      });
    }
  }).transform((hook): HookConfig => {
    const { event, timeout = DEFAULT_HOOK_TIMEOUT, fail_closed = false, tools } = hook;
    const common = tools === undefined
      ? { event, timeout, fail_closed }
      : { event, timeout, fail_closed, tools };
    if (hook.callback !== undefined) return { ...common, callback: hook.callback };
    const { command = "", args, cwd, env } = hook;
    const result: CommandHook = { ...common, command };
    if (args !== undefined) result.args = args;
    if (cwd !== undefined) result.cwd = cwd;
    if (env !== undefined) result.env = env;
    return result;
  }),
);

/** True for a hook that runs a program. */
export function isCommandHook(hook: HookConfig): hook is CommandHook {
  return "command" in hook;
}

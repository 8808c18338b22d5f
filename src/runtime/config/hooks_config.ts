/**
 * HookConfig: commands or callbacks run on lifecycle events.
 *
 * @module
 */

import { z } from "zod";
import {
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

/** An event a hook can run on. */
export type HookEvent =
  | "session_start"
  | "session_end"
  | "user_prompt_submit"
  | "permission_request"
  | "permission_denied"
  | "subagent_start"
  | "subagent_stop"
  | "pre_compact"
  | "post_compact"
  | "file_changed"
  | "config_change"
  | "task_created"
  | "task_completed";

/** Events a hook can be registered for. */
export const HOOK_EVENTS = [
  "session_start",
  "session_end",
  "user_prompt_submit",
  "permission_request",
  "permission_denied",
  "subagent_start",
  "subagent_stop",
  "pre_compact",
  "post_compact",
  "file_changed",
  "config_change",
  "task_created",
  "task_completed",
] as const satisfies readonly HookEvent[];

/** What a hook receives. */
export interface HookContext {
  /** The event that fired. */
  event: HookEvent;
  /** Id of the process the event belongs to. */
  process_id: string;
  /** ISO 8601 UTC time of the event. */
  timestamp: string;
  /** Event data; a hook may change it. */
  data: Record<string, unknown>;
  /** Extra facts about the event. */
  metadata: Record<string, unknown>;
}

/** A programmatic hook (configs built in code only; JSON cannot carry functions). */
export type HookCallback = (context: HookContext) => unknown;

/** A hook that runs a program, as written: JSON context on stdin, optional JSON answer on stdout. */
export interface CommandHookInput {
  /** Event it runs on. */
  event: HookEvent;
  /** Program to run: a non-empty command name or path. */
  command: string;
  /** Program arguments. */
  args?: string[];
  /** Working directory of the program. */
  cwd?: string;
  /** Environment variables added to the inherited ones. */
  env?: Record<string, string>;
  /**
   * Seconds before the program is killed. A number > 0.
   * @default 5
   */
  timeout?: number;
}

/** A hook that runs a program, resolved: JSON context on stdin, optional JSON answer on stdout. */
export type CommandHook = Resolved<CommandHookInput, "args" | "cwd" | "env">;

/** A hook that calls a function (configs built in code only). Written and resolved alike. */
export interface CallbackHook {
  /** Event it runs on. */
  event: HookEvent;
  /** Function to call. */
  callback: HookCallback;
}

/** One entry of `hooks` as written: `event` plus either `command` (with its options) or `callback`. */
export type HookConfigInput = CommandHookInput | CallbackHook;

/** One entry of `hooks`, resolved. */
export type HookConfig = CommandHook | CallbackHook;

const COMMAND_ONLY = ["args", "cwd", "env", "timeout"] as const;

/** One hook: `event` plus exactly one of `command` (with args, cwd, env, timeout) or `callback`. */
export const HookConfigSchema: z.ZodType<HookConfig, HookConfigInput> = narrowedTo(
  strictObject({
    event: oneOf(HOOK_EVENTS),
    command: nonEmptyString("a non-empty command").optional(),
    args: list(string(), "a list of strings").optional(),
    cwd: nonEmptyString("a directory path").optional(),
    env: stringMap().optional(),
    timeout: number({ gt: 0 }).optional(),
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
  }).transform((hook): HookConfig => {
    if (hook.callback !== undefined) return { event: hook.event, callback: hook.callback };
    const { event, command = "", args, cwd, env, timeout = 5 } = hook;
    const result: CommandHook = { event, command, timeout };
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

/**
 * ProcessHooks: the hooks of one process start, run on its events.
 *
 * Per event, every hook registered for it runs in config order. `pre_tool_call` hooks are awaited and
 * may refuse the call (the first refusal wins). Other events are notifications: they are queued and run
 * one after the other in the order the events happened, never awaited by the run. A failing or slow
 * hook is logged and journaled (`hook` entry) and never breaks the run or the process.
 *
 * @module
 */

import { Logger } from "../../log.ts";
import { hostEnv } from "../../_util/host_env.ts";
import { describeError } from "../../_util/errors.ts";
import { redactStrings } from "../../_util/redact_strings.ts";
import type { JournalRedactor, ProcessJournal } from "../../journal/mod.ts";
import { type HookConfig, type HookContext, type HookEvent, isCommandHook } from "../config/mod.ts";
import type { HookDecision, HookEventData, NotifyEvent, ToolCallHookData } from "./hook_data.ts";
import { type HookRunResult, runCallback, runCommand } from "./_hook_run.ts";

/** Most notifications waiting to run; past it, new ones are dropped (with a warning). */
export const HOOK_QUEUE_LIMIT = 100;

/** Variables of the runtime's environment a command hook gets (besides its own `env`). */
export const HOOK_BASE_VARIABLES: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LC_ALL",
  "TZ",
  "TMPDIR",
  "SYSTEMROOT",
  "TEMP",
  "TMP",
];

/** PATH given to command hooks when the runtime's own PATH cannot be read. */
const FALLBACK_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Options of {@linkcode ProcessHooks}. */
export interface ProcessHooksOptions {
  /** Process name. */
  process: string;
  /** Process id. */
  processId: string;
  /** Receives a warning for each failing, slow or refusing hook. @default a logger named `agentry.hooks` */
  logger?: Logger;
  /** Receives a `hook` entry for each hook that refused a call, failed or timed out. */
  journal?: ProcessJournal;
  /** Redacts payloads before hooks see them (the process's secret store). */
  redactor?: JournalRedactor;
  /** Reads the {@linkcode HOOK_BASE_VARIABLES}. @default the host environment (where readable) */
  env?: (name: string) => string | undefined;
}

interface Entry {
  hook: HookConfig;
  index: number;
}

/**
 * The hooks of one process start.
 *
 * @example
 * ```ts
 * import { ProcessHooks } from "@agentry/agentry";
 * const hooks = new ProcessHooks([{
 *   event: "pre_tool_call",
 *   timeout: 5,
 *   fail_closed: false,
 *   callback: (context) => context.data.tool === "delete_all" ? { decision: "deny", reason: "not today" } : {},
 * }], { process: "writer", processId: "p-1" });
 * const decision = await hooks.beforeToolCall({ run_id: "r-1", tool: "delete_all", arguments: {} });
 * console.log(decision); // { allow: false, reason: "not today" }
 * ```
 */
export class ProcessHooks {
  static #none: ProcessHooks | undefined;
  #byEvent = new Map<HookEvent, Entry[]>();
  #options: ProcessHooksOptions;
  #logger: Logger;
  #env: Record<string, string> | undefined;
  #queue: Promise<void> = Promise.resolve();
  #pending = 0;
  #warnedFull = false;

  /** A set with no hooks (every method returns at once). */
  static none(): ProcessHooks {
    return ProcessHooks.#none ??= new ProcessHooks([], { process: "", processId: "" });
  }

  /** The hooks of `hooks`, or {@linkcode ProcessHooks.none} when there are none. */
  static of(hooks: readonly HookConfig[], options: ProcessHooksOptions): ProcessHooks {
    return hooks.length === 0 ? ProcessHooks.none() : new ProcessHooks(hooks, options);
  }

  /** The hooks of `hooks` (resolved: `${VAR}` references already replaced), in config order. */
  constructor(hooks: readonly HookConfig[], options: ProcessHooksOptions) {
    hooks.forEach((hook, index) => {
      const list = this.#byEvent.get(hook.event);
      if (list) list.push({ hook, index });
      else this.#byEvent.set(hook.event, [{ hook, index }]);
    });
    this.#options = options;
    this.#logger = options.logger ?? new Logger("agentry.hooks");
  }

  /** Whether some hook runs on `event` (callers skip building the data when not). */
  has(event: HookEvent): boolean {
    return this.#byEvent.has(event);
  }

  /**
   * Queues the hooks of a notification event (every event but `pre_tool_call`). Returns at once; the hooks
   * run in order after those of earlier events. The inbox calls `emit("message_received", message)`.
   */
  emit<E extends NotifyEvent>(event: E, data: HookEventData[E]): void {
    const entries = this.#byEvent.get(event);
    if (!entries) return;
    const selected = event === "post_tool_call" ? forTool(entries, (data as { tool: string }).tool) : entries;
    if (selected.length === 0) return;
    if (this.#pending >= HOOK_QUEUE_LIMIT) {
      if (!this.#warnedFull) {
        this.#logger.warning("hooks are too slow: events dropped", { process: this.#options.process, event });
      }
      this.#warnedFull = true;
      return;
    }
    this.#pending++;
    const context = this.#context(event, data);
    this.#queue = this.#queue.then(async () => {
      for (const entry of selected) await this.#runOne(entry, context);
    }).catch((error) => {
      this.#logger.warning("hook failed", {
        process: this.#options.process,
        event,
        error: describeError(error),
      });
    }).finally(() => {
      if (--this.#pending === 0) this.#warnedFull = false;
    });
  }

  /**
   * Runs the `pre_tool_call` hooks for the tool named in `data`, in config order. The first refusal wins;
   * a hook that fails or times out lets the call through, unless it has `fail_closed: true`.
   */
  async beforeToolCall(data: ToolCallHookData): Promise<HookDecision> {
    const entries = forTool(this.#byEvent.get("pre_tool_call") ?? [], data.tool);
    if (entries.length === 0) return { allow: true };
    const context = this.#context("pre_tool_call", data);
    for (const entry of entries) {
      const result = await this.#runOne(entry, context);
      if (result.outcome === "denied") return { allow: false, reason: result.reason };
      if (result.outcome !== "ok" && entry.hook.fail_closed) {
        const why = result.outcome === "timed_out" ? "timed out" : "failed";
        return { allow: false, reason: `a pre_tool_call hook ${why} (fail_closed)` };
      }
    }
    return { allow: true };
  }

  /** Resolves once every queued notification has run. */
  settled(): Promise<void> {
    return this.#queue;
  }

  #context(event: HookEvent, data: object): { context: HookContext; json: string } {
    const redactor = this.#options.redactor;
    const shown = redactor?.redacts ? redactStrings(data, (text) => redactor.redact(text)) : data;
    const context: HookContext = {
      event,
      process: this.#options.process,
      process_id: this.#options.processId,
      timestamp: new Date().toISOString(),
      data: shown as Record<string, unknown>,
    };
    return { context, json: JSON.stringify(context) };
  }

  async #runOne(entry: Entry, input: { context: HookContext; json: string }): Promise<HookRunResult> {
    const { hook, index } = entry;
    const event = hook.event;
    const decides = event === "pre_tool_call";
    const began = performance.now();
    const result = isCommandHook(hook)
      ? await runCommand(hook, input.json, { env: this.#commandEnv(hook.env), decides })
      : await runCallback(hook, input.context, decides);
    const duration_ms = Math.round(performance.now() - began);
    const fields: Record<string, unknown> = {
      process: this.#options.process,
      event,
      hook: index,
      ...(isCommandHook(hook) ? { command: hook.command } : {}),
      outcome: result.outcome,
      duration_ms,
    };
    if (result.outcome === "denied") fields.reason = result.reason;
    if (result.outcome === "failed") fields.error = result.error;
    if (result.stderr !== undefined) fields.stderr = result.stderr;
    if (result.outcome === "ok") {
      if (result.stderr !== undefined) this.#logger.debug("hook wrote to stderr", fields);
      return result;
    }
    if (result.outcome === "denied") this.#logger.info("hook refused a tool call", fields);
    else this.#logger.warning(result.outcome === "failed" ? "hook failed" : "hook timed out", fields);
    const { process: _process, stderr: _stderr, ...entryData } = fields;
    void this.#options.journal?.record("hook", entryData);
    return result;
  }

  #commandEnv(own: Record<string, string> | undefined): Record<string, string> {
    const base = this.#env ??= baseEnv(this.#options.env ?? hostEnv);
    return own === undefined ? base : { ...base, ...own };
  }
}

function forTool(entries: Entry[], tool: string): Entry[] {
  return entries.every((entry) => entry.hook.tools === undefined)
    ? entries
    : entries.filter((entry) => entry.hook.tools === undefined || entry.hook.tools.includes(tool));
}

function baseEnv(read: (name: string) => string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of HOOK_BASE_VARIABLES) {
    const value = read(name);
    if (value !== undefined) env[name] = value;
  }
  if (env.PATH === undefined && Deno.build.os !== "windows") env.PATH = FALLBACK_PATH;
  return env;
}

/**
 * Running one hook: a command (spawned with a minimal environment, JSON on stdin, killed at its timeout) or
 * a callback (awaited up to its timeout), and reading its answer.
 *
 * @module
 */

import { describeError } from "../../_util/errors.ts";
import type { CallbackHook, CommandHook, HookContext } from "../config/mod.ts";

/** Longest stderr text (and refusal reason) kept from a command hook. */
export const STDERR_CHARS = 1000;

/** What one hook run came to. */
export type HookRunResult =
  | { outcome: "ok"; stderr?: string }
  | { outcome: "denied"; reason: string; stderr?: string }
  | { outcome: "failed"; error: string; stderr?: string }
  | { outcome: "timed_out"; stderr?: string };

/** The exit code by which a command hook refuses a `pre_tool_call` (its stderr is the reason). */
export const DENY_EXIT_CODE = 2;

const DEFAULT_REASON = "refused by a hook";

/** How long to wait for a killed hook's pipes to close before giving up on them. */
const KILL_GRACE_MS = 1000;

/** Runs a command hook with `input` (the JSON context) on stdin and `env` as its whole environment. */
export async function runCommand(
  hook: CommandHook,
  input: string,
  options: { env: Record<string, string>; decides: boolean },
): Promise<HookRunResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(hook.command, {
      args: hook.args ?? [],
      cwd: hook.cwd,
      env: options.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    return { outcome: "failed", error: `could not start: ${describeError(error)}` };
  }
  let timedOut = false;
  let giveUp: (() => void) | undefined;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const abandoned = new Promise<"abandoned">((resolve) => giveUp = () => resolve("abandoned"));
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    // A program the hook started may still hold its pipes open: stop waiting for them after a grace time.
    graceTimer = setTimeout(() => giveUp?.(), KILL_GRACE_MS);
  }, hook.timeout * 1000);
  const done = Promise.all([writeInput(child, input), child.output()]);
  try {
    const settled = await Promise.race([done, abandoned]);
    if (settled === "abandoned") {
      done.catch(() => undefined);
      return { outcome: "timed_out" };
    }
    const [, output] = settled;
    const stderr = new TextDecoder().decode(output.stderr).trim().slice(0, STDERR_CHARS);
    const extra = stderr === "" ? {} : { stderr };
    if (timedOut) return { outcome: "timed_out", ...extra };
    if (options.decides && output.code === DENY_EXIT_CODE) {
      return { outcome: "denied", reason: stderr === "" ? DEFAULT_REASON : stderr, ...extra };
    }
    if (!output.success) {
      const how = output.signal === null ? `exit code ${output.code}` : `signal ${output.signal}`;
      return { outcome: "failed", error: `ended with ${how}`, ...extra };
    }
    if (!options.decides) return { outcome: "ok", ...extra };
    const stdout = new TextDecoder().decode(output.stdout).trim();
    if (stdout === "") return { outcome: "ok", ...extra };
    let answer: unknown;
    try {
      answer = JSON.parse(stdout);
    } catch {
      return { outcome: "failed", error: "stdout is not JSON", ...extra };
    }
    return { ...readAnswer(answer), ...extra };
  } catch (error) {
    return { outcome: "failed", error: describeError(error) };
  } finally {
    clearTimeout(timer);
    clearTimeout(graceTimer);
  }
}

/** Calls a callback hook with `context`; stops waiting after its timeout. Never rejects. */
export async function runCallback(
  hook: CallbackHook,
  context: HookContext,
  decides: boolean,
): Promise<HookRunResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), hook.timeout * 1000);
  });
  try {
    const answer = await Promise.race([Promise.resolve().then(() => hook.callback(context)), late]);
    if (answer === "late") return { outcome: "timed_out" };
    if (!decides || answer === undefined || answer === null) return { outcome: "ok" };
    return readAnswer(answer);
  } catch (error) {
    return { outcome: "failed", error: describeError(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** `{decision: "deny", reason?}` refuses; `{decision: "allow"}` or `{}` lets the call through. */
function readAnswer(answer: unknown): HookRunResult {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    return { outcome: "failed", error: "the answer is not a JSON object" };
  }
  const { decision, reason } = answer as Record<string, unknown>;
  if (decision === undefined || decision === "allow") return { outcome: "ok" };
  if (decision !== "deny") return { outcome: "failed", error: 'decision is neither "allow" nor "deny"' };
  const text = typeof reason === "string" && reason.trim() !== ""
    ? reason.trim().slice(0, STDERR_CHARS)
    : DEFAULT_REASON;
  return { outcome: "denied", reason: text };
}

async function writeInput(child: Deno.ChildProcess, input: string): Promise<void> {
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  } catch {
    // The hook ended (or was killed) without reading all of its input: not an error in itself.
    try {
      await writer.abort();
    } catch {
      // already closed
    }
  }
}

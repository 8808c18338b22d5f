/**
 * Re-running the CLI in a child Deno process that holds exactly the planned permissions, for the case
 * revocation cannot fix (read or write granted for every path, e.g. `deno run -A`). The parent then drops
 * every permission and only forwards signals and the exit code. The child's stdin is a pipe the parent never
 * writes to: when the parent dies, however it dies (`kill -9` included), the pipe ends and the child shuts down
 * as on SIGTERM, so it never keeps serving (and holding the port and the data directory) on its own.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { permissionFlags, type PermissionPlan, revokeAll } from "./permissions.ts";

/** Set in the child's environment so it never relaunches again. */
export const RELAUNCHED_VARIABLE = "AGENTRY_RELAUNCHED";

/** Whether this process can relaunch itself (running from source under `deno run`, allowed to start Deno). */
export function canRelaunch(): boolean {
  if (Deno.build.standalone) return false;
  return Deno.permissions.querySync({ name: "run", command: Deno.execPath() }).state === "granted";
}

/** The `deno` arguments that run `mainModule` with the plan's permissions. */
export function relaunchArgs(plan: PermissionPlan, mainModule: string, args: readonly string[]): string[] {
  const out = ["run", "--no-prompt"];
  const config = projectConfig(mainModule);
  if (config) out.push(`--config=${config}`);
  out.push(...permissionFlags(plan), mainModule.startsWith("file:") ? fileURLToPath(mainModule) : mainModule);
  return [...out, ...args];
}

function projectConfig(mainModule: string): string | undefined {
  if (!mainModule.startsWith("file:")) return undefined;
  const candidate = fileURLToPath(new URL("deno.json", mainModule));
  try {
    return Deno.statSync(candidate).isFile ? candidate : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the child, drops this process's permissions, forwards signals, and resolves its exit code. */
export async function relaunch(
  plan: PermissionPlan,
  args: readonly string[],
  options: { signal: AbortSignal },
): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: relaunchArgs(plan, Deno.mainModule, args),
    env: { [RELAUNCHED_VARIABLE]: "1" },
    stdin: "piped", // the lifeline: see parentGone
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const forward = () => {
    const reason = options.signal.reason;
    try {
      child.kill(reason === "SIGINT" ? "SIGINT" : "SIGTERM");
    } catch {
      // already gone
    }
  };
  if (options.signal.aborted) forward();
  else options.signal.addEventListener("abort", forward, { once: true });
  await revokeAll();
  const status = await child.status;
  await child.stdin.close().catch(() => {});
  if (status.signal) return 128 + (status.signal === "SIGINT" ? 2 : status.signal === "SIGTERM" ? 15 : 1);
  return status.code;
}

/**
 * In a relaunched child: resolves when the parent is gone (its end of the stdin pipe closed, or reading fails).
 */
export async function parentGone(): Promise<void> {
  const buffer = new Uint8Array(64);
  try {
    while ((await Deno.stdin.read(buffer)) !== null) {
      // the parent never writes; anything read is ignored
    }
  } catch {
    // a broken pipe also means the parent is gone
  }
}

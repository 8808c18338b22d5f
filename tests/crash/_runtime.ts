/**
 * `agentry runtime start` as one killable subprocess on a data directory that outlives it: started with the
 * exact permissions it needs so it runs in place (no relaunched child a SIGKILL would orphan).
 *
 * @module
 */

import { RuntimeClient } from "../../src/api/client.ts";
import type { DeadLetter } from "../../src/runtime/mod.ts";
import { EXACT_ENV_FLAGS, RunningCli } from "../_cli_harness.ts";

/** A runtime started on a kept data directory. */
export interface KillableRuntime extends AsyncDisposable {
  /** The subprocess; its stderr holds the log. */
  readonly cli: RunningCli;
  /** A client for its control API. */
  readonly client: RuntimeClient;
  /** The dead letters of a process (none when it cannot be read, e.g. removed). */
  deadLetters(name: string): Promise<DeadLetter[]>;
  /** SIGKILLs the runtime and waits until it is gone (its output streams closed). */
  kill(): Promise<void>;
}

/**
 * Starts `agentry runtime start` on `dataDir` (created if missing) and resolves once it announced its
 * address, which it does after restoring the stored deployments. Disposal SIGKILLs what is still running.
 */
export async function startKillable(
  dataDir: string,
  options: { env: Record<string, string>; readyMs?: number },
): Promise<KillableRuntime> {
  const cli = new RunningCli(["runtime", "start", "--port", "0", "--json", "--data-dir", dataDir], {
    flags: [
      "--allow-net",
      `--allow-read=${dataDir}`,
      `--allow-write=${dataDir}`,
      ...EXACT_ENV_FLAGS,
    ],
    env: options.env,
  });
  let killed = false;
  const kill = async () => {
    if (!killed) {
      killed = true;
      try {
        cli.child.kill("SIGKILL");
      } catch {
        // already exited
      }
    }
    await cli.exited();
  };
  let listening: { url: string; token: string | null };
  try {
    listening = JSON.parse(await cli.waitFor("stdout", /^\{"url"/, options.readyMs ?? 20_000));
  } catch (error) {
    await kill();
    throw error;
  }
  const client = new RuntimeClient({ baseUrl: listening.url, token: listening.token ?? undefined });
  const deadLetters = (name: string) =>
    client.listDeadLetters(name).then((answer) => answer.dead_letters, () => [] as DeadLetter[]);
  return {
    cli,
    client,
    deadLetters,
    kill,
    async [Symbol.asyncDispose]() {
      await client.close();
      await kill();
    },
  };
}

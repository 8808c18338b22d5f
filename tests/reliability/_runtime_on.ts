/**
 * `agentry runtime start` on a data directory that outlives it, for the issue-14 replays that restart the
 * runtime: started with the exact permissions it needs (so it runs in place, one process to signal), with
 * a typed client and a raw `api()` for bodies the client cannot send (nested 10,000 deep).
 *
 * @module
 */

import { RuntimeClient } from "../../src/api/client.ts";
import { EXACT_ENV_FLAGS, RunningCli } from "../_cli_harness.ts";

/** An answer of the control API: status and body text. */
export interface RawAnswer {
  status: number;
  text: string;
}

/** A started runtime on a kept data directory. */
export interface DataDirRuntime extends AsyncDisposable {
  /** The subprocess (stderr holds the log). */
  readonly cli: RunningCli;
  /** A client for its control API. */
  readonly client: RuntimeClient;
  /** Sends `body` (a string is sent as is) to `/api/v1<path>` with the token. */
  api(method: string, path: string, body?: unknown): Promise<RawAnswer>;
  /** SIGTERM, then the exit code (the client is closed first). */
  stop(): Promise<number>;
}

/** The CLI arguments and Deno flags of `agentry runtime start --data-dir <dataDir>` running in place. */
export function runtimeStartCommand(dataDir: string, root: string): { args: string[]; flags: string[] } {
  return {
    args: ["runtime", "start", "--port", "0", "--json", "--data-dir", dataDir],
    flags: [
      "--allow-net",
      `--allow-read=${root}`,
      `--allow-write=${root}`,
      ...EXACT_ENV_FLAGS,
    ],
  };
}

/**
 * Starts `agentry runtime start --data-dir <dataDir>` with read and write granted under `root` (which must
 * hold the data dir) and resolves once it announced its address (after restoring stored deployments).
 */
export async function runtimeOn(
  dataDir: string,
  options: { root: string; env?: Record<string, string>; readyMs?: number },
): Promise<DataDirRuntime> {
  const { args, flags } = runtimeStartCommand(dataDir, options.root);
  const cli = new RunningCli(args, { flags, env: options.env });
  let url: string;
  let token: string | null;
  try {
    const exited = cli.child.status.then(({ code }) => {
      throw new Error(`runtime start exited ${code} before listening; stderr:\n${cli.stderr.join("\n")}`);
    });
    const line = await Promise.race([cli.waitFor("stdout", /^\{"url"/, options.readyMs ?? 20_000), exited]);
    exited.catch(() => {});
    ({ url, token } = JSON.parse(line));
  } catch (error) {
    await cli[Symbol.asyncDispose]();
    throw error;
  }
  const client = new RuntimeClient({ baseUrl: url, token: token ?? undefined });
  const api = async (method: string, path: string, body?: unknown): Promise<RawAnswer> => {
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };
  return {
    cli,
    client,
    api,
    async stop() {
      await client.close();
      return await cli.stop("SIGTERM");
    },
    async [Symbol.asyncDispose]() {
      await client.close();
      await cli[Symbol.asyncDispose]();
    },
  };
}

/** A JSON text nesting objects `depth` deep: `{"a":{"a":...1...}}`. */
export function deepJson(depth: number): string {
  return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

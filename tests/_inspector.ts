/**
 * The official MCP Inspector's CLI mode (`@modelcontextprotocol/inspector --cli`) for black-box tests. It needs
 * Node 22, so it runs under Deno from a version-pinned `npm:` specifier, outside the project's config and lock
 * file, in a scratch directory of its own. The first run downloads the package (hence the long bound).
 *
 * @module
 */

import assert from "node:assert/strict";
import { tempDir } from "./_cli_harness.ts";

/** The Inspector release the tests pin. */
export const INSPECTOR = "npm:@modelcontextprotocol/inspector@2.12.0";

/** Options for {@linkcode inspector}. */
export interface InspectorOptions {
  /** Written as the scratch directory's `mcp.json` (the Inspector's catalog). */
  catalog?: unknown;
  /** Exit codes that count as an answer. @default [0] */
  exitCodes?: readonly number[];
  /** Longest run. @default 120_000 */
  timeoutMs?: number;
}

/** Runs `inspector --cli --format json -q ARGS` and parses the `result` it prints. */
export async function inspector<T>(args: string[], options: InspectorOptions = {}): Promise<T> {
  await using scratch = await tempDir();
  if (options.catalog !== undefined) {
    await Deno.writeTextFile(`${scratch.path}/mcp.json`, JSON.stringify(options.catalog));
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      "--no-lock",
      "-A",
      INSPECTOR,
      "--cli",
      "--format",
      "json",
      "-q",
      ...args,
    ],
    cwd: scratch.path,
    env: {
      NO_COLOR: "1",
      MCP_CATALOG_PATH: `${scratch.path}/mcp.json`,
      MCP_CLIENT_CONFIG_PATH: `${scratch.path}/client.json`,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
  try {
    const output = await child.output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.ok(
      (options.exitCodes ?? [0]).includes(output.code),
      `inspector ${args.join(" ")} exited ${output.code}\n${stderr}\n${stdout}`,
    );
    return (JSON.parse(stdout) as { result: T }).result;
  } finally {
    clearTimeout(timer);
  }
}

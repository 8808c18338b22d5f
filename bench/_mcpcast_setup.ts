/**
 * The mcpcast benchmark's fixed parts: where things are, the peer's install, and the check of what a
 * command wrote.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OutputCheck } from "./_mcpcast_output.ts";
import type { MeasuredRun } from "./_process_run.ts";

/** The repository's directory. */
export const ROOT: string = dirname(dirname(fileURLToPath(import.meta.url)));
/** The spec converted: the GitHub REST description (13 MB, 1,223 operations). */
export const SPEC: string = join(ROOT, "tests", "fixtures", "specs", "api.github.com.json");
/** The `agentry` entry point. */
export const MAIN: string = join(ROOT, "main.ts");
/** The peer's npm package and the version measured. */
export const PEER = { name: "openapi-mcp-generator", pin: "4.0.1" } as const;
/** Where the peer is installed (`.tools/` is not committed). */
export const PEER_PREFIX: string = join(ROOT, ".tools", "bench-peers");
/** The peer's CLI script, run with `node`. */
export const PEER_BIN: string = join(PEER_PREFIX, "node_modules", PEER.name, "bin", `${PEER.name}.js`);

/** Runs `cmd` to its end and returns its trimmed stdout; throws with its stderr when it fails. */
export async function output(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdin: "null", stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout).trim();
}

/** Installs the peer with npm when missing; returns its version. */
export async function ensurePeer(): Promise<string> {
  const installed = await Deno.stat(PEER_BIN).then(() => true, () => false);
  if (!installed) {
    console.error(`installing ${PEER.name}@${PEER.pin} into ${PEER_PREFIX}`);
    const spec = `${PEER.name}@${PEER.pin}`;
    await output("npm", ["install", "--prefix", PEER_PREFIX, "--no-audit", "--no-fund", spec]);
  }
  const manifest = join(PEER_PREFIX, "node_modules", PEER.name, "package.json");
  return JSON.parse(await Deno.readTextFile(manifest)).version;
}

/** Every file under `dir`: how many, and their bytes. */
async function sizeOf(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      const inner = await sizeOf(path);
      files += inner.files;
      bytes += inner.bytes;
    } else {
      files++;
      bytes += (await Deno.stat(path)).size;
    }
  }
  return { files, bytes };
}

/**
 * What a run wrote into `out`: our project (the plan file; tools counted from the summary on stderr)
 * or the peer's (tools counted in `src/index.ts`). Throws when the run failed or wrote no project.
 */
export async function checkOutput(
  kind: "ours" | "peer",
  out: string,
  run: MeasuredRun,
): Promise<OutputCheck> {
  if (run.figures.code !== 0) {
    throw new Error(`${kind} exited ${run.figures.code}:\n${run.stderr.slice(-2000)}`);
  }
  const size = await sizeOf(out);
  if (kind === "peer") {
    const index = await Deno.readTextFile(join(out, "src", "index.ts"));
    return { tools: index.match(/^ {2}\["[^"]+", \{$/gm)?.length ?? 0, ...size };
  }
  await Deno.stat(join(out, "mcpcast.plan.yaml"));
  const kept = /(\d[\d,]*) tools? kept/.exec(run.stderr)?.[1];
  return { tools: kept === undefined ? NaN : Number(kept.replaceAll(",", "")), ...size };
}

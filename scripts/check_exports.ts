/**
 * The public surface as a reviewed file. Lists every name each entry point in `deno.json` `exports`
 * publishes (from `deno doc --json`) into `scripts/exports.txt`, one `entry kind name` line each, sorted by
 * entry and name.
 *
 * - `deno task exports` rewrites the snapshot after a deliberate change;
 * - `--check` (part of `deno task ok`) fails on any difference, printing the names added (`+`) and
 *   removed (`-`), so a new public name shows up in review as one line.
 *
 * Usage: deno run --allow-read --allow-run [--allow-write=scripts/exports.txt] scripts/check_exports.ts [--check]
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SNAPSHOT = join(ROOT, "scripts", "exports.txt");
const HEADER = "# Public names per entry point (deno task exports; checked by deno task ok). entry kind name";

interface DocSymbol {
  name: string;
  declarations: Array<{ kind: string }>;
}

/** The snapshot lines for a `deno doc --json` result and the `exports` map of `deno.json`. */
export function snapshotLines(
  doc: { nodes: Record<string, { symbols?: DocSymbol[] }> },
  entries: Record<string, string>,
): string[] {
  const lines: string[] = [];
  for (const [entry, target] of Object.entries(entries).sort(([a], [b]) => a.localeCompare(b))) {
    const node = doc.nodes[pathToFileURL(join(ROOT, target)).href];
    if (!node) throw new Error(`deno doc gave nothing for ${entry} (${target})`);
    const symbols = [...(node.symbols ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const symbol of symbols) {
      const kinds = [...new Set(symbol.declarations.map((d) => d.kind))].sort().join("+");
      lines.push(`${entry} ${kinds} ${symbol.name}`);
    }
  }
  return lines;
}

/** Names in `next` and not in `previous` (`+ line`), then the reverse (`- line`). */
export function snapshotDiff(previous: string[], next: string[]): string[] {
  const before = new Set(previous);
  const after = new Set(next);
  return [
    ...next.filter((line) => !before.has(line)).map((line) => `+ ${line}`),
    ...previous.filter((line) => !after.has(line)).map((line) => `- ${line}`),
  ];
}

async function main(check: boolean): Promise<number> {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const entries = config.exports as Record<string, string>;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...Object.values(entries)],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) return 1;
  const lines = snapshotLines(JSON.parse(new TextDecoder().decode(output.stdout)), entries);
  const text = `${HEADER}\n${lines.join("\n")}\n`;
  if (!check) {
    await Deno.writeTextFile(SNAPSHOT, text);
    console.log(`exports: wrote ${lines.length} names to scripts/exports.txt`);
    return 0;
  }
  const previous = (await Deno.readTextFile(SNAPSHOT).catch(() => "")).split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"));
  const diff = snapshotDiff(previous, lines);
  if (diff.length === 0) {
    console.log(`exports: ok (${lines.length} names)`);
    return 0;
  }
  console.error(
    `exports: the public surface changed; review it, then run deno task exports\n${diff.join("\n")}`,
  );
  return 1;
}

if (import.meta.main) Deno.exitCode = await main(Deno.args.includes("--check"));

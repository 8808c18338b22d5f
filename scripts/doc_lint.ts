/**
 * `deno doc --lint` for the published entry points, with one allowance: a public type may reference
 * a type from a dependency (zod, the MCP SDK) without re-exporting it, because re-exporting would
 * publish the dependency's whole API as ours. A reference to one of OUR types that is not exported
 * is still an error, as is every other lint.
 *
 * Usage: deno run --allow-read --allow-run scripts/doc_lint.ts [FILE...]; without files it lints every entry
 * point in `deno.json` `exports`.
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const files = Deno.args.length > 0 ? Deno.args : Object.values(
  JSON.parse(await Deno.readTextFile(join(root, "deno.json"))).exports as Record<string, string>,
);

async function ownTypeNames(): Promise<Set<string>> {
  const names = new Set<string>();
  const declaration =
    /^\s*(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:(?:interface|class|enum)\s+([A-Za-z_]\w*)|type\s+([A-Za-z_]\w*)\s*[<=])/gm;
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        for (const match of (await Deno.readTextFile(path)).matchAll(declaration)) {
          names.add(match[1] ?? match[2]);
        }
      }
    }
  }
  await walk(join(root, "src"));
  return names;
}

const output = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--lint", ...files],
  cwd: root,
  env: { NO_COLOR: "1" },
  stdout: "piped",
  stderr: "piped",
}).output();
const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
const own = await ownTypeNames();
const blocks = text.split(/\n(?=error\[)/).filter((block) => block.startsWith("error["));
const problems = blocks.filter((block) => {
  const external = /^error\[private-type-ref\]: .* references private type '([^']+)'/.exec(block);
  return !external || own.has(external[1]);
});
if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`doc lint: ${problems.length} problem(s)`);
  Deno.exitCode = 1;
} else if (!output.success && blocks.length === 0) {
  console.error(text);
  Deno.exitCode = 1;
} else {
  console.log(`doc lint: ok (${blocks.length} references to dependency types allowed)`);
}

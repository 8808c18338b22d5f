/**
 * End to end: a project generated from a meta-tool-mode plan type-checks and passes its own generated
 * tests, which reach every plan tool through `invoke_tool`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { mcpcast } from "../mcpcast.ts";
import { writeProject } from "../emit/mod.ts";
import { parsePlan } from "../plan/mod.ts";

const ROOT = new URL("../../../", import.meta.url);
const SPEC = new URL("tests/fixtures/specs/train_travel_oas31.yaml", ROOT).pathname;

async function denoIn(cwd: string, args: string[]): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
  try {
    const output = await child.output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, `deno ${args.join(" ")} failed:\n${text.slice(-4000)}`);
    return text;
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("a meta-mode project checks and passes its generated tests through invoke_tool", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agentry-meta-" });
  try {
    const direct = await mcpcast(SPEC, { profile: "standard", auth: "env-token" });
    const plan = parsePlan({ ...direct, api: { ...direct.api, tool_mode: "meta" } });
    const out = join(dir, plan.api.name);
    await writeProject(plan, out, { frameworkImport: ROOT.href });
    assert.match(await Deno.readTextFile(join(out, "mcpcast.plan.yaml")), /\n {2}tool_mode: meta\n/);
    assert.match(await Deno.readTextFile(join(out, "README.md")), /Served in meta-tool mode/);
    const tests = await Deno.readTextFile(join(out, "tests", "tools_test.ts"));
    assert.match(tests, /client\.callTool\("invoke_tool", \{ name, arguments: args \}, call\)/);
    await denoIn(out, ["check", "--quiet", "main.ts", "src/", "tests/"]);
    const text = await denoIn(out, ["test", "--allow-all"]);
    assert.match(text, /the meta tools are listed and describe every tool of the plan \.\.\. ok/);
    assert.match(text, /ok \| \d+ passed (\(\d+ steps\) )?\| 0 failed/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

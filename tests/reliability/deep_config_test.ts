/**
 * Issue 14 item 1, replayed against the real binary: "one accepted deploy bricks the data dir". Deploys with
 * `context.initial_state` nested 1,000, 3,000 and 4,000 deep, and bodies nested 10,000 deep on the deploy,
 * context, inbox and budget routes, are all refused with 422 (never 500) and nothing of them is stored; the
 * runtime then restarts on the same data dir with its processes. A deep record planted in
 * `processes.jsonl` (as a version before the fix could store) is skipped with a warning, not a crash.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { nestedDeeperThan } from "../../src/_util/json_depth.ts";
import { tempDir } from "../_cli_harness.ts";
import { deepJson, type RawAnswer, runtimeOn } from "./_runtime_on.ts";

const KEEPER = {
  model: "openai-compatible:echo",
  instructions: "Keep the data dir healthy.",
  context: { initial_state: { region: "eu" } },
  inbox: { enabled: true },
  budget: { enabled: true, max_runs_per_day: 50 },
};
/** No model call is made: the echo endpoint is never reached. */
const ENV = { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1" };

function refused(answer: RawAnswer, what: string): void {
  assert.equal(answer.status, 422, `${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  assert.equal(JSON.parse(answer.text).error.code, "INVALID_FIELD", what);
}

/** The names and depths of every record line in `processes.jsonl`. */
async function storedLines(dataDir: string): Promise<Array<{ name: string; deep: boolean }>> {
  const text = await Deno.readTextFile(join(dataDir, "processes", "processes.jsonl"));
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const parsed = JSON.parse(line);
    return { name: parsed.record?.name ?? parsed.name, deep: nestedDeeperThan(parsed, 64) };
  });
}

Deno.test("deep configs and 10,000-deep bodies get 422 on every route, nothing is stored, and a restart works", async () => {
  await using dir = await tempDir();
  const dataDir = join(dir.path, "state");
  {
    await using runtime = await runtimeOn(dataDir, { root: dir.path, env: ENV });
    assert.equal((await runtime.client.deploy("keeper", KEEPER, { start: true })).state, "running");

    for (const depth of [1_000, 3_000, 4_000]) {
      const body = `{"name":"deep${depth}","config":{"context":{"initial_state":${
        deepJson(depth)
      }}},"start":true}`;
      refused(await runtime.api("POST", "/processes", body), `deploy with initial_state ${depth} deep`);
    }
    const deep = deepJson(10_000);
    const routes: Array<[string, string, string]> = [
      ["POST", "/processes", `{"name":"deepest","config":${deep}}`],
      ["PATCH", "/processes/keeper/context", `{"state":{"region":${deep}}}`],
      ["POST", "/processes/keeper/messages", `{"content":"hi","metadata":${deep}}`],
      ["PATCH", "/processes/keeper/budget", `{"max_runs_per_day":${deep}}`],
    ];
    for (const [method, path, body] of routes) {
      refused(await runtime.api(method, path, body), `${method} ${path}`);
    }

    const { processes } = await runtime.client.listProcesses();
    assert.deepEqual(processes.map((p) => p.name), ["keeper"]);
    assert.deepEqual((await runtime.client.getContext("keeper")).state, { region: "eu" });
    assert.equal((await runtime.client.getInbox("keeper")).count, 0);
    assert.equal(await runtime.stop(), 0);
  }
  const lines = await storedLines(dataDir);
  assert.deepEqual(lines.filter((line) => line.name !== "keeper"), [], "only keeper was stored");
  assert.ok(lines.every((line) => !line.deep), "no stored line nests deeper than 64");

  await using again = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  const restored = await again.client.getProcess("keeper");
  assert.equal(restored.state, "running");
  assert.deepEqual((await again.client.getContext("keeper")).state, { region: "eu" });
  assert.equal(await again.stop(), 0);
});

Deno.test("a deep record planted in processes.jsonl is skipped with a warning and the others are restored", async () => {
  await using dir = await tempDir();
  const dataDir = join(dir.path, "state");
  await Deno.mkdir(join(dataDir, "processes"), { recursive: true });
  const line = (name: string, config: string) =>
    `{"op":"save","record":{"name":"${name}","process_id":"p-${name}","created_at":1764000000,` +
    `"config":${config},"desired_state":"running"}}\n`;
  const planted = line("keeper", JSON.stringify(KEEPER)) +
    line("deep4000", `{"context":{"initial_state":${deepJson(4_000)}}}`) +
    line("deep10000", `{"context":{"initial_state":${deepJson(10_000)}}}`) +
    line("other", JSON.stringify({ ...KEEPER, instructions: "Another one." }));
  await Deno.writeTextFile(join(dataDir, "processes", "processes.jsonl"), planted, { mode: 0o600 });

  await using runtime = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  const { processes } = await runtime.client.listProcesses();
  assert.deepEqual(processes.map((p) => [p.name, p.state]), [["keeper", "running"], ["other", "running"]]);
  const warnings = runtime.cli.stderr.filter((l) => l.includes("unreadable stored deployment skipped"));
  assert.equal(warnings.length, 2, runtime.cli.stderr.join("\n"));
  assert.match(warnings[0], /processes\.jsonl line 2: nested deeper than 64 levels/);
  assert.match(warnings[1], /processes\.jsonl line 3: nested deeper than 64 levels/);
  // The runtime keeps serving and storing: a new deploy and a removal go through.
  await runtime.client.deploy("fresh", KEEPER);
  await runtime.client.removeProcess("other");
  assert.equal(await runtime.stop(), 0);

  await using again = await runtimeOn(dataDir, { root: dir.path, env: ENV });
  const names = (await again.client.listProcesses()).processes.map((p) => p.name);
  assert.deepEqual(names, ["fresh", "keeper"]);
  assert.equal(await again.stop(), 0);
});

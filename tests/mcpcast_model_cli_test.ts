import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli, RunningCli, tempDir } from "./_cli_harness.ts";
import { petstoreProposal, scriptedCastModel } from "../src/cli/mcpcast/_test_model.ts";

const PETSTORE = fileURLToPath(new URL("./fixtures/specs/petstore_swagger2.yaml", import.meta.url));
const REPO = fileURLToPath(new URL("..", import.meta.url));

function listDir(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

Deno.test("agentry mcpcast --model answers a missing env or net permission, or a missing key, in one line, and writes nothing", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const base = [
    `--allow-read=${REPO},${dir.path}`,
    `--allow-write=${dir.path}`,
    "--ignore-env=LOG_STREAM,LOG_TOKENS",
  ];
  const openaiEnv = "--allow-env=OPENAI_API_KEY,OPENAI_BASE_URL";
  const cases: Array<[string[], string[], Record<string, string>, string]> = [
    [
      ["--model", "openai:gpt-5-mini"],
      base,
      {},
      "agentry: mcpcast: may not read OPENAI_API_KEY (model 'openai:gpt-5-mini'): run with " +
      "--allow-env=OPENAI_API_KEY,OPENAI_BASE_URL",
    ],
    [
      ["--model", "openai:gpt-5-mini"],
      [...base, openaiEnv],
      { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "" },
      "agentry: mcpcast: may not connect to api.openai.com: run with --allow-net=api.openai.com",
    ],
    [
      ["--model", "openai:gpt-5-mini"],
      [...base, openaiEnv, "--allow-net=api.openai.com"],
      { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" },
      "agentry: model 'openai:gpt-5-mini' could not be used: model provider \"openai\" needs the environment " +
      "variable OPENAI_API_KEY, which is not set",
    ],
    [
      ["--model", "openai-compatible:x", "--eval"],
      [
        ...base,
        "--allow-env=OPENAI_COMPATIBLE_API_KEY,OPENAI_COMPATIBLE_BASE_URL",
        "--allow-net=127.0.0.1:9",
      ],
      { OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_COMPATIBLE_API_KEY: "" },
      "agentry: mcpcast: may not connect to petstore.swagger.io: run with --allow-net=petstore.swagger.io",
    ],
  ];
  for (const [args, flags, env, expected] of cases) {
    const result = await runCli(["mcpcast", PETSTORE, "--out", out, ...args], { flags, env });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stderr.trim(), expected);
    assert.deepEqual(listDir(out), [], "nothing written");
  }
});

Deno.test("agentry mcpcast stopped by SIGINT during curation exits 130 and writes nothing", async () => {
  let release = () => {};
  const hold = new Promise<void>((resolve) => release = resolve);
  await using model = scriptedCastModel({ curation: [petstoreProposal()], hold });
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  await using cli = new RunningCli(["mcpcast", PETSTORE, "--out", out, "--model", model.model], {
    env: model.env,
  });
  await cli.waitFor("stderr", /curating with openai-compatible:x: attempt 1\/3/);
  while (model.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  const code = await cli.stop("SIGINT");
  release();
  assert.equal(code, 130, cli.stderr.join("\n"));
  assert.equal(cli.stderr.at(-1), "agentry: interrupted: nothing written");
  assert.deepEqual(listDir(out), []);
});

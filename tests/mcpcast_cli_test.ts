import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli, tempDir } from "./_cli_harness.ts";
import { hasPty, runOnPty } from "./_pty_harness.ts";

const PETSTORE = fileURLToPath(new URL("./fixtures/specs/petstore_swagger2.yaml", import.meta.url));
const PETSTORE_JSON = fileURLToPath(new URL("./fixtures/specs/petstore_oas30.json", import.meta.url));
const GITHUB = fileURLToPath(new URL("./fixtures/specs/api.github.com.json", import.meta.url));
const PTY = await hasPty();

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("agentry mcpcast converts the Swagger 2 petstore into a project and prints a JSON summary", async () => {
  await using dir = await tempDir();
  const out = join(dir.path, "pets");
  const result = await runCli(["mcpcast", PETSTORE, "--out", out, "--profile", "standard", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split("\n");
  assert.equal(lines.length, 1);
  const summary = JSON.parse(lines[0]);
  // slice C: uploadFile (multipart/form-data) is a tool now; slice D: get_pet_by_id and get_inventory
  // (api_key header) are kept too.
  assert.deepEqual(summary.counts, { kept: 16, gated: 9, dropped: 4 });
  for (const file of ["mcpcast.plan.yaml", "deno.json", "main.ts"]) {
    assert.ok(summary.files.includes(file), file);
    assert.ok(await exists(join(out, file)), file);
  }
  assert.match(result.stderr, /^mcpcast: petstore → /);
  assert.doesNotMatch(result.stderr, /\[\d+\.\ds\]/, "no progress display off a terminal");
});

Deno.test("agentry mcpcast exits 2 with one line for wrong usage, and 1 with one line for a bad spec", async () => {
  for (
    const args of [["mcpcast"], ["mcpcast", "s.yaml", "--profile", "admin"], [
      "mcpcast",
      "s.yaml",
      "--review",
    ]]
  ) {
    const result = await runCli(args);
    assert.equal(result.code, 2, args.join(" "));
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
  }
  await using dir = await tempDir();
  const bad = join(dir.path, "bad.yaml");
  await Deno.writeTextFile(bad, "openapi: 3.0.0\ninfo: {title: x, version: '1'}\n");
  const result = await runCli(["mcpcast", bad, "--out", join(dir.path, "o")]);
  assert.equal(result.code, 1);
  assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
  assert.match(result.stderr, /^agentry: /);
});

Deno.test({
  name: "agentry mcpcast with no arguments on a pseudo-terminal runs the guided setup and writes a project",
  ignore: !PTY,
  async fn() {
    await using dir = await tempDir();
    const result = await runOnPty(["mcpcast"], [
      ["Spec (file path or http(s) URL): ", PETSTORE],
      ["Base URL [", ""],
      ["Model [offline]: ", ""],
      ["Profile [read-only]: ", "standard"],
      ["Auth [passthrough]: ", "env-token"],
      ["API name [petstore]: ", ""],
      ["Output directory [./petstore-mcp]: ", ""],
      ["Write the project to ./petstore-mcp? [Y/n] ", "y"],
    ], { cwd: dir.path });
    assert.equal(result.code, 0, result.screen + result.driver);
    assert.equal(result.driver, "");
    assert.match(result.screen, /20 operations: 7 read · 10 write · 3 destructive/);
    assert.match(
      result.screen,
      /Same result without questions: agentry mcpcast \S+ --profile standard --auth env-token\n/,
    );
    for (const file of ["mcpcast.plan.yaml", "deno.json", "main.ts"]) {
      assert.ok(await exists(join(dir.path, "petstore-mcp", file)), file);
    }
  },
});

Deno.test({
  name: "agentry mcpcast shows its phases on a terminal for a large spec",
  ignore: !PTY,
  async fn() {
    await using dir = await tempDir();
    const result = await runOnPty(["mcpcast", GITHUB, "--plan-only", "--out", join(dir.path, "gh")], [], {
      timeoutMs: 120_000,
    });
    assert.equal(result.code, 0, result.screen + result.driver);
    for (
      const phase of [/loading api\.github\.com\.json/, /parsed 1,223 operations/, /planning/, /writing /]
    ) {
      assert.match(result.screen, new RegExp(`mcpcast: \\[\\d+\\.\\ds\\] ${phase.source}`));
    }
    assert.ok(await exists(join(dir.path, "gh", "mcpcast.plan.yaml")));
  },
});

Deno.test({
  name:
    "the guided setup on a terminal says which flag a missing permission needs, asks again, and never shows Deno's prompt",
  ignore: !PTY,
  async fn() {
    await using dir = await tempDir();
    const hidden = join(dir.path, "hidden");
    const allowed = join(dir.path, "allowed");
    await Deno.mkdir(hidden);
    await Deno.mkdir(allowed);
    await Deno.copyFile(PETSTORE, join(hidden, "petstore.yaml"));
    const repo = fileURLToPath(new URL("..", import.meta.url));
    const result = await runOnPty(["mcpcast"], [
      ["Spec (file path or http(s) URL): ", join(hidden, "petstore.yaml")],
      ["Spec (file path or http(s) URL): ", PETSTORE],
      ["Spec (file path or http(s) URL): ", PETSTORE_JSON],
      ["Base URL [", ""],
      ["Model [offline]: ", ""],
      ["Profile [read-only]: ", ""],
      ["Auth [passthrough]: ", ""],
      ["API name [petstore]: ", ""],
      ["Output directory [./petstore-mcp]: ", ""],
      ["Output directory [./petstore-mcp]: ", "allowed/pets"],
      ["Write the project to allowed/pets? [Y/n] ", ""],
    ], {
      cwd: dir.path,
      // No --ignore-env: a YAML spec is refused before the yaml library's look-ups would make Deno ask.
      flags: [`--allow-read=${repo},${allowed}`, `--allow-write=${allowed}`],
    });
    assert.equal(result.code, 0, result.screen + result.driver);
    assert.equal(result.driver, "");
    assert.ok(
      result.screen.includes(
        `  mcpcast: may not read ${join(hidden, "petstore.yaml")}: run with --allow-read=${
          join(hidden, "petstore.yaml")
        } (or --allow-read=${hidden})\n`,
      ),
      result.screen,
    );
    assert.ok(
      result.screen.includes(
        "  mcpcast: the yaml library looks up LOG_STREAM and LOG_TOKENS: run with --ignore-env=LOG_STREAM,LOG_TOKENS\n",
      ),
      result.screen,
    );
    assert.ok(
      result.screen.includes(
        "  mcpcast: may not write to ./petstore-mcp: run with --allow-write=./petstore-mcp (or --allow-write=.)\n",
      ),
      result.screen,
    );
    assert.doesNotMatch(result.screen, /Deno requests|Allow\?|NotCapable/);
    assert.ok(await exists(join(allowed, "pets", "mcpcast.plan.yaml")));
    assert.ok(!await exists(join(dir.path, "petstore-mcp")));
    const early = await runOnPty(["mcpcast", "--out", "elsewhere"], [], {
      cwd: dir.path,
      flags: [`--allow-read=${repo},${allowed}`, `--allow-write=${allowed}`],
    });
    assert.equal(early.code, 1, early.screen + early.driver);
    assert.equal(
      early.screen.trim(),
      "agentry: mcpcast: may not write to elsewhere: run with --allow-write=elsewhere (or --allow-write=.)",
    );
  },
});

Deno.test("agentry mcpcast answers a missing permission or a yaml env look-up in one line naming the flag, before reading or writing", async () => {
  await using dir = await tempDir();
  const allowed = join(dir.path, "allowed");
  const repo = fileURLToPath(new URL("..", import.meta.url));
  const flags = [`--allow-read=${repo},${allowed}`, `--allow-write=${allowed}`];
  const ignoreEnv = "--ignore-env=LOG_STREAM,LOG_TOKENS";
  const outside = join(dir.path, "elsewhere", "pets");
  const cases: Array<[string[], string[], string]> = [
    [
      [PETSTORE, "--out", outside],
      [...flags, ignoreEnv],
      `may not write to ${outside}: run with ` +
      `--allow-write=${outside} (or --allow-write=${join(dir.path, "elsewhere")})`,
    ],
    [
      [join(dir.path, "spec.yaml"), "--out", join(allowed, "a")],
      [...flags, ignoreEnv],
      `may not read ` +
      `${join(dir.path, "spec.yaml")}: run with --allow-read=${
        join(dir.path, "spec.yaml")
      } (or --allow-read=${dir.path})`,
    ],
    [
      ["https://api.example.com:8443/openapi.json", "--out", join(allowed, "b")],
      [...flags, ignoreEnv],
      "may not connect to api.example.com:8443: run with --allow-net=api.example.com:8443",
    ],
    [
      [PETSTORE, "--out", join(allowed, "c")],
      flags,
      "the yaml library looks up LOG_STREAM and LOG_TOKENS: " +
      "run with --ignore-env=LOG_STREAM,LOG_TOKENS",
    ],
  ];
  for (const [args, given, expected] of cases) {
    const result = await runCli(["mcpcast", ...args], { flags: given });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.ok(result.stderr.trim().endsWith(expected), `${result.stderr}\nexpected: ${expected}`);
  }
  assert.ok(!await exists(outside));
  const written = await runCli(["mcpcast", PETSTORE, "--out", join(allowed, "pets")], {
    flags: [...flags, ignoreEnv],
  });
  assert.equal(written.code, 0, written.stderr);
});

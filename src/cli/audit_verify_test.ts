import assert from "node:assert/strict";
import { join } from "node:path";
import { readLines, saveLines, SECRET, tempDir, writeLog } from "../mcp/audit/_test_audit.ts";
import { runCli } from "./mod.ts";

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

async function cli(
  args: string[],
  env: Record<string, string> = { AGENTRY_AUDIT_SECRET: SECRET },
): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli({
    args,
    env: (name) => env[name],
    signal: new AbortController().signal,
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
  });
  return { code, stdout, stderr };
}

Deno.test("audit verify exits 0 for an intact log and 1 for a tampered one, with a summary on stderr", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 4);
  const intact = await cli(["audit", "verify", path]);
  assert.equal(intact.code, 0);
  assert.deepEqual(intact.stdout, []);
  assert.match(
    intact.stderr[0],
    /^audit log intact: 4 entries, 0 restarts, last seq 3, last hash [0-9a-f]{64}$/,
  );
  const lines = await readLines(path);
  await saveLines(path, lines.toSpliced(1, 1));
  const tampered = await cli(["audit", "verify", path]);
  assert.equal(tampered.code, 1);
  assert.match(tampered.stderr[0], /^audit log TAMPERED: 1 problem\(s\) in 3 entries$/);
  assert.equal(tampered.stderr[1], `  ${path}:2: deleted (seq 2, count 1): 1 entry missing before seq 2`);
});

Deno.test("audit verify --json prints the report on stdout", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 3);
  const lines = await readLines(path);
  await saveLines(path, [lines[0], lines[2], lines[1]]);
  const run = await cli(["audit", "verify", "--json", path]);
  assert.equal(run.code, 1);
  assert.deepEqual(run.stderr, []);
  assert.equal(run.stdout.length, 1);
  const report = JSON.parse(run.stdout[0]);
  assert.equal(report.ok, false);
  assert.equal(report.entries, 3);
  assert.deepEqual(report.firstProblem, {
    kind: "reordered",
    file: path,
    line: 2,
    seq: 2,
    detail: "entry seq 2 comes before seq 1 (found later, line 3)",
  });
});

Deno.test("audit verify fails warnings only with --strict, reads keys from --key-env, and starts at --anchor", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 2, { hmacSecret: "old" });
  await writeLog(path, 2);
  await Deno.writeTextFile(path, '{"seq":4', { append: true });
  const env = { NEW_KEY: SECRET, OLD_KEY: "old" };
  const lenient = await cli(["audit", "verify", path, "--key-env", "NEW_KEY", "--key-env", "OLD_KEY"], env);
  assert.equal(lenient.code, 0);
  assert.match(lenient.stderr[0], /intact: 4 entries, 1 restart,/);
  assert.match(lenient.stderr[1], /warning: .*:5: truncated/);
  const strict = await cli([
    "audit",
    "verify",
    path,
    "--key-env",
    "NEW_KEY",
    "--key-env",
    "OLD_KEY",
    "--strict",
  ], env);
  assert.equal(strict.code, 1);
  assert.equal((await cli(["audit", "verify", path, "--key-env", "NEW_KEY"], env)).code, 1);
  const anchor = JSON.parse((await readLines(path))[1]).hmac;
  const anchored = await cli(
    ["audit", "verify", path, "--key-env", "NEW_KEY", "--anchor", anchor, "--json"],
    env,
  );
  assert.equal(anchored.code, 0);
  assert.equal(JSON.parse(anchored.stdout[0]).entries, 2);
});

Deno.test("audit verify exits 2 for unreadable files, a missing key and wrong usage", async () => {
  await using dir = await tempDir();
  const missing = await cli(["audit", "verify", join(dir.path, "nope.jsonl")]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr[0], /^agentry: cannot read the audit log: /);
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 1);
  const noKey = await cli(["audit", "verify", path], {});
  assert.equal(noKey.code, 2);
  assert.deepEqual(noKey.stderr, [
    "agentry: AGENTRY_AUDIT_SECRET is not set (it must hold the audit log's HMAC key)",
  ]);
  for (
    const [args, help] of [
      [["audit"], "agentry audit"],
      [["audit", "check"], "agentry audit"],
      [["audit", "verify"], "agentry audit verify"],
      [["audit", "verify", path, "--bogus"], "agentry audit verify"],
      [["audit", "verify", path, "--anchor", "xyz"], "agentry audit verify"],
      [["audit", "verify", path, "--key-env", "NOT-A-NAME"], "agentry audit verify"],
    ] as const
  ) {
    const run = await cli([...args]);
    assert.equal(run.code, 2, args.join(" "));
    assert.equal(run.stderr.length, 1, args.join(" "));
    assert.ok(
      run.stderr[0].startsWith("agentry: ") && run.stderr[0].endsWith(`(see ${help} --help)`),
      run.stderr[0],
    );
  }
});

Deno.test("audit verify --help prints its usage, and the main help lists the command", async () => {
  const help = await cli(["audit", "verify", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout[0], /^Usage: agentry audit verify FILE\.\.\./);
  assert.match((await cli(["--help"])).stdout[0], /audit verify {6}check the HMAC chain/);
});

import assert from "node:assert/strict";

const MODULE = new URL("./host_env.ts", import.meta.url).href;

/** Runs a script importing this module in a child Deno with `flags`, and returns what it printed. */
async function inChild(flags: string[], script: string, env: Record<string, string>): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...flags, "-"],
    env: { NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`import * as env from "${MODULE}";\n${script}`));
  await writer.close();
  const output = await child.output();
  clearTimeout(timer);
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.equal(output.code, 0, decode(output.stderr));
  return decode(output.stdout).trim();
}

const REPORT = `const value = env.hostEnv("SECRET_X");
console.log(JSON.stringify([value ?? null, value === undefined ? env.unsetVariableReason("SECRET_X") : null]));`;

Deno.test("a variable the process may not read is told apart from one that is not set", async () => {
  assert.deepEqual(JSON.parse(await inChild([], REPORT, { SECRET_X: "set" })), [
    null,
    "may not read SECRET_X: run with --allow-env=SECRET_X",
  ]);
  assert.deepEqual(JSON.parse(await inChild(["--allow-env=SECRET_X"], REPORT, {})), [
    null,
    "SECRET_X is not set",
  ]);
  assert.deepEqual(JSON.parse(await inChild(["--allow-env=SECRET_X"], REPORT, { SECRET_X: "set" })), [
    "set",
    null,
  ]);
});

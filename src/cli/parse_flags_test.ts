import assert from "node:assert/strict";
import { UsageError } from "./exit.ts";
import { parseFlags, parsePort } from "./parse_flags.ts";

Deno.test("parseFlags returns values and positionals, and refuses unknown flags in one line", () => {
  const flags = { json: { type: "boolean" }, out: { type: "string", short: "o" } } as const;
  const { values, positionals } = parseFlags(["-o", "dir", "spec.yaml", "--json"], {
    flags,
    positionals: true,
  });
  assert.deepEqual({ ...values }, { out: "dir", json: true });
  assert.deepEqual(positionals, ["spec.yaml"]);
  assert.throws(() => parseFlags(["--nope"], { flags }), (error: unknown) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.message, "unknown option '--nope'");
    return true;
  });
  assert.throws(() => parseFlags(["spec.yaml"], { flags }), UsageError);
});

Deno.test("parseFlags words its refusals in lower case, naming the flag and the nearest known one", () => {
  const flags = {
    port: { type: "string" },
    fsync: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  } as const;
  const refusal = (args: string[], positionals = false) => {
    try {
      parseFlags(args, { flags, positionals });
    } catch (error) {
      assert.ok(error instanceof UsageError);
      return error.message;
    }
    assert.fail(`${args.join(" ")} was accepted`);
  };
  assert.equal(refusal(["--prot", "80"]), "unknown option '--prot'; did you mean --port?");
  assert.equal(refusal(["--prot=80"]), "unknown option '--prot'; did you mean --port?");
  assert.equal(refusal(["--fsnyc"]), "unknown option '--fsnyc'; did you mean --fsync?");
  assert.equal(refusal(["-x"]), "unknown option '-x'");
  assert.equal(refusal(["--port"]), "--port needs a value");
  assert.equal(
    refusal(["--port", "--fsync"]),
    "--port needs a value (for one starting with '-', write --port=-VALUE)",
  );
  assert.equal(refusal(["--fsync=yes"]), "--fsync takes no value");
  assert.equal(refusal(["extra"]), "unexpected argument 'extra'");
});

Deno.test("parsePort takes 0 to 65535 and falls back when not given", () => {
  assert.equal(parsePort(undefined, 8080), 8080);
  assert.equal(parsePort("0", 8080), 0);
  assert.equal(parsePort("65535", 8080), 65535);
  for (const bad of ["65536", "-1", "80.5", "", "http"]) {
    assert.throws(() => parsePort(bad, 8080), { message: "--port must be an integer from 0 to 65535" });
  }
});

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
    assert.ok(!error.message.includes("\n") && error.message.startsWith("Unknown option '--nope'"));
    return true;
  });
  assert.throws(() => parseFlags(["spec.yaml"], { flags }), UsageError);
});

Deno.test("parsePort takes 0 to 65535 and falls back when not given", () => {
  assert.equal(parsePort(undefined, 8080), 8080);
  assert.equal(parsePort("0", 8080), 0);
  assert.equal(parsePort("65535", 8080), 65535);
  for (const bad of ["65536", "-1", "80.5", "", "http"]) {
    assert.throws(() => parsePort(bad, 8080), { message: "--port must be an integer from 0 to 65535" });
  }
});

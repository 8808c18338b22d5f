import assert from "node:assert/strict";
import { parseStartArgs, RUNTIME_START_HELP } from "./runtime_start_args.ts";
import { UsageError } from "./exit.ts";
import { MANIFEST_SUFFIXES } from "../runtime/mod.ts";

Deno.test("runtime start takes --fsync as a switch, off by default, and documents it", () => {
  assert.equal(parseStartArgs([]).fsync, false);
  assert.equal(parseStartArgs(["--fsync"]).fsync, true);
  assert.throws(() => parseStartArgs(["--fsync=maybe"]), UsageError);
  assert.match(RUNTIME_START_HELP, /--fsync\s+fdatasync every acknowledged write/);
});

Deno.test("--head-timeout takes whole seconds from 1 to 3600; without it the host decides", () => {
  assert.equal(parseStartArgs([]).headTimeout, undefined);
  assert.equal(parseStartArgs(["--head-timeout", "3"]).headTimeout, 3);
  for (const bad of ["0", "1.5", "x", "3601", ""]) {
    assert.throws(() => parseStartArgs(["--head-timeout", bad]), UsageError, bad);
  }
  assert.match(RUNTIME_START_HELP, /--head-timeout SECONDS/);
});

Deno.test("runtime start --help names every manifest file ending the loader accepts and the token file", () => {
  const manifests = RUNTIME_START_HELP.split("\n").find((line) => line.includes("--manifests DIR"));
  assert.ok(MANIFEST_SUFFIXES.length >= 3);
  for (const suffix of MANIFEST_SUFFIXES) assert.ok(manifests?.includes(`*${suffix}`), suffix);
  assert.match(RUNTIME_START_HELP, /^A generated token is also written to <data-dir>\/api_token: /m);
});

Deno.test("runtime start serves the console unless --no-console, and documents the switch", () => {
  assert.equal(parseStartArgs([]).noConsole, false);
  assert.equal(parseStartArgs(["--no-console"]).noConsole, true);
  assert.equal(parseStartArgs(["--no-console", "--no-token"]).noToken, true);
  assert.throws(() => parseStartArgs(["--no-console=yes"]), UsageError);
  assert.match(RUNTIME_START_HELP, /--no-console\s+do not serve the web console \(\/console\/;/);
});

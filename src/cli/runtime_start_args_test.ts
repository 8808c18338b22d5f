import assert from "node:assert/strict";
import { parseStartArgs, RUNTIME_START_HELP } from "./runtime_start_args.ts";
import { UsageError } from "./exit.ts";

Deno.test("runtime start takes --fsync as a switch, off by default, and documents it", () => {
  assert.equal(parseStartArgs([]).fsync, false);
  assert.equal(parseStartArgs(["--fsync"]).fsync, true);
  assert.throws(() => parseStartArgs(["--fsync=maybe"]), UsageError);
  assert.match(RUNTIME_START_HELP, /--fsync\s+fdatasync every acknowledged write/);
});

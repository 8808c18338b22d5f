/**
 * The `agentry` binary. The only module that touches `Deno.args`, signals and `Deno.exit`.
 *
 * @module
 */

import { runCli } from "./src/cli/mod.ts";
import { hostEnv } from "./src/_util/host_env.ts";
import { processIsTerminal, stdinLineReader } from "./src/cli/line_reader.ts";

if (import.meta.main) {
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      if (!stop.signal.aborted) stop.abort(signal);
    });
  }
  const code = await runCli({
    args: Deno.args,
    env: hostEnv,
    signal: stop.signal,
    stdout: (line) => console.log(line),
    stderr: (line) => console.error(line),
    readLine: stdinLineReader(),
    isTerminal: processIsTerminal,
  });
  Deno.exit(code);
}

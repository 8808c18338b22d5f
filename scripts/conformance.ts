/**
 * Runs the MCP conformance suite (`@modelcontextprotocol/conformance`, server mode, active scenarios)
 * against `examples/everything_server.ts` served by `agentry serve --transport http`, and exits with the
 * suite's exit code (0: every scenario passed or failed as `conformance/expected_failures.yml` expects).
 *
 * Steps: pick a free port, start `main.ts serve ... --transport http --port PORT`, wait for its
 * "listening" line, run the suite (pinned version, outside the project's config and lock file, in a
 * scratch directory because it writes `results/` into its working directory) with its output streamed,
 * then stop the server (SIGTERM, SIGKILL after 5 s). The server's own log is shown only when the suite
 * fails. Every step is bounded in time.
 *
 * Usage: deno run -A scripts/conformance.ts   (or: deno task conformance)
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";

/** The suite release this project is checked against. */
const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";
const LISTEN_TIMEOUT_MS = 60_000;
const SUITE_TIMEOUT_MS = 150_000;
const KILL_AFTER_MS = 5_000;
const LOG_LINES = 200;

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
const expectedFailures = join(root, "conformance", "expected_failures.yml");

function freePort(): number {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  return (listener.addr as Deno.NetAddr).port;
}

/** Keeps the last lines of a stream and resolves `listening` when the "listening" line appears. */
async function drain(
  stream: ReadableStream<Uint8Array>,
  log: string[],
  listening: () => void,
): Promise<void> {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let index;
    while ((index = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, index);
      buffer = buffer.slice(index + 1);
      log.push(line);
      if (log.length > LOG_LINES) log.shift();
      if (line.startsWith("agentry serve: listening on ")) listening();
    }
  }
  if (buffer) log.push(buffer);
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  const kill = (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch {
      // already exited
    }
  };
  kill("SIGTERM");
  const timer = setTimeout(() => kill("SIGKILL"), KILL_AFTER_MS);
  await child.status;
  clearTimeout(timer);
}

async function main(): Promise<number> {
  const port = freePort();
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${join(root, "deno.json")}`,
      "-A",
      join(root, "main.ts"),
      "serve",
      join(root, "examples", "everything_server.ts"),
      "--transport",
      "http",
      "--port",
      String(port),
    ],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const log: string[] = [];
  const listening = Promise.withResolvers<void>();
  const drained = drain(server.stderr, log, listening.resolve);
  const scratch = await Deno.makeTempDir({ prefix: "agentry-conformance-" });
  const started = Date.now();
  let code = 1;
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      listening.promise.then(() => "listening" as const),
      server.status.then(() => "exited" as const),
      new Promise<"timeout">((done) => timer = setTimeout(() => done("timeout"), LISTEN_TIMEOUT_MS)),
    ]);
    clearTimeout(timer);
    if (outcome !== "listening") {
      console.error(`conformance: the server ${outcome === "exited" ? "exited" : "did not listen in time"}:`);
      console.error(log.join("\n"));
      return 1;
    }
    const url = `http://localhost:${port}/mcp`;
    console.error(`conformance: running ${SUITE} against ${url}`);
    const suite = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-config",
        "--no-lock",
        "-A",
        SUITE,
        "server",
        "--url",
        url,
        "--expected-failures",
        expectedFailures,
      ],
      cwd: scratch,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const suiteTimer = setTimeout(() => {
      console.error(`conformance: the suite took longer than ${SUITE_TIMEOUT_MS / 1000} s; stopping it`);
      suite.kill("SIGKILL");
    }, SUITE_TIMEOUT_MS);
    const status = await suite.status;
    clearTimeout(suiteTimer);
    code = status.success ? 0 : status.code || 1;
    if (code !== 0) console.error(`conformance: server log (last ${LOG_LINES} lines):\n${log.join("\n")}`);
    return code;
  } finally {
    await stop(server);
    await drained;
    await Deno.remove(scratch, { recursive: true });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.error(`conformance: ${code === 0 ? "passed" : "FAILED"} in ${seconds} s`);
  }
}

if (import.meta.main) Deno.exit(await main());

/**
 * Runs the MCP conformance suites (`@modelcontextprotocol/conformance`, server mode) against
 * `examples/everything_server.ts` served by `agentry serve --transport http`, with no expected-failures
 * file: any failing check fails the run.
 *
 * The suites, in order:
 * - `0.1.16`: the 0.1.16 release's active scenarios (2025-era sessions);
 * - `2025-11-25`: 0.2.0-alpha.12 `--requirements 2025-11-25` (sessions, initialize handshake);
 * - `2026-07-28`: 0.2.0-alpha.12 `--requirements 2026-07-28` (stateless requests), which also runs the
 *   scenarios that requirement set does not score (the Tasks extension, pending ones): they must pass too.
 *
 * Steps: pick a free port, start `main.ts serve ... --transport http --port PORT` once, wait for its
 * "listening" line, run each selected suite (pinned version, outside the project's config and lock file, in
 * a scratch directory because it writes `results/` into its working directory, with `-o` so its checks are
 * read back) with its output streamed, then stop the server (SIGTERM, SIGKILL after 5 s). It prints one
 * summary line per suite (scenarios and checks passed and failed, the not-scored ones counted apart), the
 * failing checks, and a verdict; the server's log only when something failed. Every step is bounded in time.
 *
 * Usage: deno task conformance [-- --suite 0.1.16|2025-11-25|2026-07-28 ...]
 * (`--requirements REV` is the same as `--suite REV`; several may be given; default: all three.)
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import {
  addCheckDetails,
  failureLines,
  parseSummary,
  suitePassed,
  type SuiteReport,
  summaryLine,
  warningLines,
} from "./_conformance_report.ts";

/** The suites this project is checked against: label, then the suite's arguments after `server --url URL`. */
const SUITES: Record<string, { pkg: string; args: string[] }> = {
  "0.1.16": { pkg: "npm:@modelcontextprotocol/conformance@0.1.16", args: [] },
  "2025-11-25": {
    pkg: "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12",
    args: ["--requirements", "2025-11-25"],
  },
  "2026-07-28": {
    pkg: "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12",
    args: ["--requirements", "2026-07-28"],
  },
};
const LISTEN_TIMEOUT_MS = 60_000;
const SUITE_TIMEOUT_MS = 240_000;
const KILL_AFTER_MS = 5_000;
const LOG_LINES = 200;

const root = resolve(dirname(new URL(import.meta.url).pathname), "..");

/** The suites named by `--suite X` / `--requirements X` (all when none is named). */
export function selectSuites(args: string[]): string[] {
  const chosen: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === "--") continue;
    const [name, inline] = flag.split("=", 2);
    if (name !== "--suite" && name !== "--requirements") throw new TypeError(`unknown argument '${flag}'`);
    const value = inline ?? args[++i];
    if (!value || !(value in SUITES)) {
      throw new TypeError(`${name} needs one of ${Object.keys(SUITES).join(", ")} (got '${value ?? ""}')`);
    }
    if (!chosen.includes(value)) chosen.push(value);
  }
  return chosen.length ? chosen : Object.keys(SUITES);
}

function freePort(): number {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  return (listener.addr as Deno.NetAddr).port;
}

/** Keeps the last lines of the server's stderr and resolves `listening` on its "listening" line. */
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

/** Copies `stream` to stdout and resolves the whole text. */
async function tee(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    text += chunk;
    await Deno.stdout.write(new TextEncoder().encode(chunk));
  }
  return text;
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

async function startServer(port: number, log: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
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
  const listening = Promise.withResolvers<void>();
  const drained = drain(child.stderr, log, listening.resolve);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    listening.promise.then(() => "listening" as const),
    child.status.then(() => "exited" as const),
    new Promise<"timeout">((done) => timer = setTimeout(() => done("timeout"), LISTEN_TIMEOUT_MS)),
  ]);
  clearTimeout(timer);
  return { child, drained, outcome };
}

async function runSuite(suite: string, url: string, scratch: string): Promise<SuiteReport> {
  const { pkg, args } = SUITES[suite];
  const cwd = join(scratch, suite);
  await Deno.mkdir(cwd, { recursive: true });
  console.error(`conformance: running ${pkg} ${args.join(" ")} against ${url}`.trimEnd());
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-config",
      "--no-lock",
      "-A",
      pkg,
      "server",
      "--url",
      url,
      ...args,
      "-o",
      "out",
    ],
    cwd,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const timer = setTimeout(() => {
    console.error(`conformance: ${suite} took longer than ${SUITE_TIMEOUT_MS / 1000} s; stopping it`);
    child.kill("SIGKILL");
  }, SUITE_TIMEOUT_MS);
  const output = await tee(child.stdout);
  const status = await child.status;
  clearTimeout(timer);
  const scenarios = parseSummary(output);
  await addCheckDetails(scenarios, join(cwd, "out"));
  return { suite, scenarios, exitCode: status.success ? 0 : status.code || 1 };
}

async function main(args: string[]): Promise<number> {
  let suites: string[];
  try {
    suites = selectSuites(args);
  } catch (error) {
    console.error(`conformance: ${(error as Error).message}`);
    return 2;
  }
  const started = Date.now();
  const log: string[] = [];
  const { child, drained, outcome } = await startServer(freePort(), log);
  const scratch = await Deno.makeTempDir({ prefix: "agentry-conformance-" });
  const reports: SuiteReport[] = [];
  try {
    if (outcome !== "listening") {
      console.error(`conformance: the server ${outcome === "exited" ? "exited" : "did not listen in time"}:`);
      console.error(log.join("\n"));
      return 1;
    }
    const url = log.find((line) => line.startsWith("agentry serve: listening on "))!.slice(28).trim();
    for (const suite of suites) reports.push(await runSuite(suite, url, scratch));
  } finally {
    await stop(child);
    await drained;
    await Deno.remove(scratch, { recursive: true });
  }
  const failed = reports.filter((report) => !suitePassed(report));
  console.log("\n=== agentry conformance ===");
  for (const report of reports) console.log(summaryLine(report));
  for (const report of reports.filter((each) => warningLines(each).length)) {
    console.log(`${report.suite} warnings (SHOULDs; they do not fail the run):`);
    for (const line of warningLines(report)) console.log(line);
  }
  for (const report of failed) {
    console.log(`${report.suite} failures:`);
    for (const line of failureLines(report)) console.log(line);
  }
  if (failed.length) console.error(`conformance: server log (last ${LOG_LINES} lines):\n${log.join("\n")}`);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    failed.length
      ? `conformance: FAILED (${failed.map((report) => report.suite).join(", ")}) in ${seconds} s`
      : `conformance: passed (${reports.map((report) => report.suite).join(", ")}) in ${seconds} s`,
  );
  return failed.length ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));

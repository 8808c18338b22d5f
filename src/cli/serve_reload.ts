/**
 * `agentry serve FILE --reload`: the command does not import FILE itself; it runs `agentry serve` (the same
 * flags minus `--reload`) as a child process with `AGENTRY_RELOAD_CHILD=1`, polls every second the mtimes
 * of every `*.ts`, `*.js` and `*.json` file under FILE's directory (recursively, skipping `node_modules`
 * and directories whose name starts with a dot) and, when a file is added, modified or deleted, stops the
 * child (SIGTERM, SIGKILL after 5 s) and starts a new one. A child that fails (non-zero exit) is restarted
 * at the next change; one that ends with 0 by itself (stdio: the client closed stdin) ends the command.
 * SIGINT or SIGTERM stops the child and exits 0. With stdio the child inherits stdin and stdout.
 *
 * The child runs `deno run --no-prompt [--config=<deno.json beside main.ts>] <flags> main.ts serve ...`
 * (a compiled binary runs itself: `agentry serve ...`, with the permissions it was compiled with). Its
 * permission flags follow one rule, so a child never holds more than this process:
 *
 * - for each of net, read, write, env, run, sys and ffi granted here for everything: `--allow-<name>`;
 * - otherwise nothing for that kind, except
 *   - read: `--allow-read=<FILE's directory>,<directory of main.ts>` (the module and the library);
 *   - env: `--allow-env=` the `AGENTRY_*` settings variables and `AGENTRY_RELOAD_CHILD`;
 *   - net with http/sse: `--allow-net=<host>:<port>` when exactly that is granted here (and the port is
 *     not 0); without network access the command refuses to start.
 *
 * This process needs read access to FILE's directory and permission to run Deno.
 *
 * @module
 */

import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describeError } from "../_util/errors.ts";
import { SETTINGS_ENV } from "../mcp/mod.ts";
import type { CliContext } from "./cli_context.ts";
import { changedFiles, snapshotFiles } from "./file_stamps.ts";
import { serveArgsWithoutReload, type ServeOptions } from "./serve_args.ts";
import { CliFailure, EXIT } from "./exit.ts";

/** Set (to "1") in the child's environment: it serves instead of supervising again. */
export const RELOAD_CHILD_VARIABLE = "AGENTRY_RELOAD_CHILD";

/** Milliseconds between two looks at the files. */
export const RELOAD_POLL_MS = 1_000;

/** Milliseconds between SIGTERM and SIGKILL when a child is stopped. */
export const RELOAD_KILL_MS = 5_000;

const KINDS = ["net", "read", "write", "env", "run", "sys", "ffi"] as const;

/** Where the child's permission flags come from. */
export interface ChildPermissionOptions {
  /** The command's options. */
  options: ServeOptions;
  /** Directory of main.ts (the library), when it is a local file. */
  projectDir?: string;
  /** Whether this process holds a permission. @default Deno.permissions.querySync(...) is "granted" */
  granted?: (descriptor: Deno.PermissionDescriptor) => boolean;
}

/** The child's permission flags, by the rule in the module doc; throws {@linkcode CliFailure}. */
export function childPermissionFlags(input: ChildPermissionOptions): string[] {
  const { options, projectDir } = input;
  const granted = input.granted ?? ((d) => Deno.permissions.querySync(d).state === "granted");
  const flags: string[] = [];
  for (const name of KINDS) {
    if (granted({ name })) {
      flags.push(`--allow-${name}`);
    } else if (name === "read") {
      const dirs = [dirname(options.path), ...(projectDir ? [projectDir] : [])];
      const bad = dirs.find((dir) => dir.includes(","));
      if (bad) throw new CliFailure(`--reload cannot grant read access to ${bad}: the path contains a comma`);
      flags.push(`--allow-read=${[...new Set(dirs)].join(",")}`);
    } else if (name === "env") {
      flags.push(`--allow-env=${[...SETTINGS_ENV, RELOAD_CHILD_VARIABLE].join(",")}`);
    } else if (name === "net" && options.transport !== "stdio") {
      const host = `${options.host.includes(":") ? `[${options.host}]` : options.host}:${options.port}`;
      if (options.port === 0 || !granted({ name: "net", host })) {
        throw new CliFailure(
          `--reload with --transport ${options.transport} needs network access: run with --allow-net`,
        );
      }
      flags.push(`--allow-net=${host}`);
    }
  }
  return flags;
}

/** How this process was started, for {@linkcode reloadCommand}. */
export interface ReloadHost {
  /** @default Deno.execPath() */
  execPath?: string;
  /** @default Deno.mainModule */
  mainModule?: string;
  /** Whether this is a compiled binary. @default Deno.build.standalone */
  standalone?: boolean;
  /** Permission lookup. @default Deno.permissions.querySync(...) is "granted" */
  granted?: (descriptor: Deno.PermissionDescriptor) => boolean;
}

/** The program and arguments of the child that serves `options`. */
export function reloadCommand(
  options: ServeOptions,
  host: ReloadHost = {},
): { program: string; args: string[] } {
  const program = host.execPath ?? Deno.execPath();
  const serveArgs = serveArgsWithoutReload(options);
  if (host.standalone ?? Deno.build.standalone) return { program, args: serveArgs };
  const mainModule = host.mainModule ?? Deno.mainModule;
  const main = mainModule.startsWith("file:") ? fileURLToPath(mainModule) : undefined;
  const projectDir = main ? dirname(main) : undefined;
  const args = ["run", "--no-prompt"];
  const config = projectDir ? join(projectDir, "deno.json") : undefined;
  if (config && isFile(config)) args.push(`--config=${config}`);
  args.push(...childPermissionFlags({ options, projectDir, granted: host.granted }), main ?? mainModule);
  return { program, args: [...args, ...serveArgs] };
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Supervises the reloading child until `ctx.signal` aborts; resolves the exit code. */
export async function superviseReload(options: ServeOptions, ctx: CliContext): Promise<number> {
  const { program, args } = reloadCommand(options);
  if (
    !Deno.build.standalone &&
    Deno.permissions.querySync({ name: "run", command: program }).state !== "granted"
  ) {
    throw new CliFailure(`--reload needs permission to start ${program} (run with --allow-run)`);
  }
  const watchDir = dirname(options.path);
  const start = (): Deno.ChildProcess => {
    try {
      return new Deno.Command(program, {
        args,
        env: { [RELOAD_CHILD_VARIABLE]: "1" },
        stdin: options.transport === "stdio" ? "inherit" : "null",
        stdout: "inherit",
        stderr: "inherit",
      }).spawn();
    } catch (error) {
      throw new CliFailure(`cannot start the server process: ${describeError(error)}`);
    }
  };
  let files = await snapshotFiles(watchDir);
  ctx.stderr(`agentry serve: watching ${watchDir} for changes (--reload)`);
  let child: Deno.ChildProcess | undefined = start();
  try {
    while (!ctx.signal.aborted) {
      const status = await nextTick(ctx.signal, child?.status);
      if (ctx.signal.aborted) break;
      if (status) {
        child = undefined;
        if (status.success) {
          ctx.stderr("agentry serve: the server exited; stopping");
          return EXIT.ok;
        }
        ctx.stderr(`agentry serve: the server exited with code ${status.code}; waiting for a file change`);
        continue;
      }
      const next = await snapshotFiles(watchDir);
      const changed = changedFiles(files, next);
      files = next;
      if (changed.length === 0) continue;
      const names = changed.slice(0, 3).map((path) => relative(watchDir, path));
      if (changed.length > 3) names.push("...");
      ctx.stderr(`agentry serve: ${names.join(", ")} changed; restarting`);
      if (child) await stopChild(child);
      child = start();
    }
  } finally {
    if (child) await stopChild(child);
  }
  return EXIT.ok;
}

/** Waits one poll interval, or until the signal aborts, or until `exited` settles (resolving its status). */
async function nextTick(
  signal: AbortSignal,
  exited: Promise<Deno.CommandStatus> | undefined,
): Promise<Deno.CommandStatus | undefined> {
  const round = new AbortController();
  const tick = new Promise<undefined>((resolve) => {
    const timer = setTimeout(done, RELOAD_POLL_MS);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      round.signal.removeEventListener("abort", done);
      resolve(undefined);
    }
    signal.addEventListener("abort", done, { once: true });
    round.signal.addEventListener("abort", done, { once: true });
  });
  try {
    return await Promise.race([tick, ...(exited ? [exited] : [])]);
  } finally {
    round.abort();
  }
}

/** SIGTERM, then SIGKILL after {@linkcode RELOAD_KILL_MS}; resolves once the child has exited. */
export async function stopChild(child: Deno.ChildProcess): Promise<void> {
  const kill = (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch {
      // already exited
    }
  };
  kill("SIGTERM");
  const timer = setTimeout(() => kill("SIGKILL"), RELOAD_KILL_MS);
  try {
    await child.status;
  } finally {
    clearTimeout(timer);
  }
}

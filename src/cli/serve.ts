/**
 * `agentry serve FILE`: imports FILE, takes the {@linkcode ToolServer} its default export gives, and serves
 * it over stdio, streamable HTTP or SSE until SIGINT or SIGTERM (or, with stdio, until stdin ends).
 *
 * The default export is a `ToolServer` or a function (sync or async) returning one. `createToolServer`
 * reads the `AGENTRY_*` settings itself; the CLI checks them first, so a bad `AGENTRY_LOG_LEVEL` or
 * `AGENTRY_TIMEOUT_DEFAULT` is a usage error before anything is imported.
 *
 * Permissions: read access to FILE and the modules it imports, network access for http/sse, and whatever
 * the module itself needs; `deno run -A main.ts serve FILE` is the simple way. With `--reload` the command
 * supervises a child process instead (see `serve_reload.ts`).
 *
 * @module
 */

import { pathToFileURL } from "node:url";
import { describeError } from "../_util/errors.ts";
import { loadServerSettings, run, type ServeHandle, ToolServer } from "../mcp/mod.ts";
import type { CliContext } from "./cli_context.ts";
import { parseServeArgs, SERVE_HELP } from "./serve_args.ts";
import { RELOAD_CHILD_VARIABLE, superviseReload } from "./serve_reload.ts";
import { CliFailure, EXIT, UsageError } from "./exit.ts";
import { permissionProblem } from "./permission_problem.ts";

/** Runs `agentry serve` with the arguments after `serve`. */
export async function serve(args: readonly string[], ctx: CliContext): Promise<number> {
  const options = parseServeArgs(args);
  if (options.help) {
    ctx.stdout(SERVE_HELP.trimEnd());
    return EXIT.ok;
  }
  try {
    loadServerSettings(ctx.env);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  await requireFile(options.path, options.file);
  if (options.reload && ctx.env(RELOAD_CHILD_VARIABLE) !== "1") return await superviseReload(options, ctx);
  const server = await loadServer(options.path, options.file);
  let handle: ServeHandle;
  try {
    handle = await run(server, {
      transport: options.transport,
      signal: ctx.signal,
      ...(options.transport === "stdio" ? {} : {
        host: options.host,
        port: options.port,
        allowedHosts: options.allowedHosts,
        allowedOrigins: options.allowedOrigins,
        onListen: () => undefined,
        ...(options.stateless ? { stateless: true } : {}),
      }),
    });
  } catch (error) {
    const problem = listenProblem(error);
    if (problem) throw new CliFailure(`cannot listen on ${options.host}:${options.port}: ${problem}`);
    throw new CliFailure(permissionProblem(error) ?? `cannot serve ${options.file}: ${describeError(error)}`);
  }
  if (handle.url) ctx.stderr(`agentry serve: listening on ${handle.url}`);
  await handle.finished;
  return EXIT.ok;
}

/** Imports `path` and resolves the server its default export gives; throws {@linkcode CliFailure}. */
export async function loadServer(path: string, shown: string = path): Promise<ToolServer> {
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    throw new CliFailure(`cannot import ${shown}: ${describeError(error)}`);
  }
  let exported = module.default;
  if (typeof exported === "function" && !(exported.prototype instanceof ToolServer)) {
    try {
      exported = await exported();
    } catch (error) {
      throw new CliFailure(
        `the default export of ${shown} failed to build the server: ${
          permissionProblem(error) ?? describeError(error)
        }`,
      );
    }
  }
  if (exported instanceof ToolServer) return exported;
  const what = "default" in module ? `gives ${describeValue(exported)}` : "is missing";
  throw new CliFailure(
    `the default export of ${shown} ${what}: export a ToolServer (from @agentry/agentry/mcp) or a ` +
      "function returning one, e.g. `export default function buildServer() { ... }` (a ToolServer from " +
      "another copy of the library is not recognised)",
  );
}

async function requireFile(path: string, shown: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new CliFailure(`${shown}: no such file`);
    throw new CliFailure(permissionProblem(error) ?? `cannot read ${shown}: ${describeError(error)}`);
  }
  if (!info.isFile) throw new CliFailure(`${shown} is not a file`);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no prototype"})`;
  return typeof value === "function" ? "a class, not a ToolServer" : `a ${typeof value}`;
}

function listenProblem(error: unknown): string | undefined {
  if (error instanceof Deno.errors.AddrInUse) return "the address is already in use";
  if (error instanceof Deno.errors.AddrNotAvailable) return "the address is not available on this machine";
  return undefined;
}

/**
 * The `agentry` command line.
 *
 * @module
 */

import { VERSION } from "../version.ts";
import type { CliContext } from "./cli_context.ts";
import { CliFailure, EXIT, UsageError } from "./exit.ts";

export type { CliContext } from "./cli_context.ts";
export { EXIT } from "./exit.ts";

/** Help text of `agentry`. */
export const MAIN_HELP = `agentry ${VERSION}: a runtime for LLM agents as long-lived services

Usage: agentry <command> [options]

Commands:
  runtime start     serve the control API for a runtime of agent processes
  audit verify      check the HMAC chain of MCP audit logs
  serve FILE        serve the MCP tool server a module exports (stdio, http or sse)
  mcpcast SOURCE    turn an OpenAPI/Swagger spec into an MCP server project (no SOURCE on a
                    terminal: guided setup)

Options:
  -h, --help        show this help (also: agentry <command> --help)
  -V, --version     print the version
`;

/** Runs the CLI and resolves its exit code. Each command is loaded only when it runs, so one command
 * does not pay for the others' dependencies (the control API, the MCP SDK). */
export async function runCli(ctx: CliContext): Promise<number> {
  const [first, second, ...rest] = ctx.args;
  try {
    if (first === undefined) {
      ctx.stderr(MAIN_HELP.trimEnd());
      return EXIT.usage;
    }
    if (first === "-h" || first === "--help") {
      ctx.stdout(MAIN_HELP.trimEnd());
      return EXIT.ok;
    }
    if (first === "-V" || first === "--version") {
      ctx.stdout(`agentry ${VERSION}`);
      return EXIT.ok;
    }
    if (first.startsWith("-")) throw new UsageError(`unknown option '${first}'`);
    if (first === "runtime" && second === "start") {
      return await (await import("./runtime_start.ts")).runtimeStart(rest, ctx);
    }
    if (first === "runtime") {
      throw new UsageError(
        second === undefined ? "runtime needs a subcommand: start" : `unknown runtime command '${second}'`,
      );
    }
    if (first === "audit" && second === "verify") {
      return await (await import("./audit_verify.ts")).auditVerify(rest, ctx);
    }
    if (first === "audit") {
      throw new UsageError(
        second === undefined ? "audit needs a subcommand: verify" : `unknown audit command '${second}'`,
      );
    }
    if (first === "serve") return await (await import("./serve.ts")).serve(ctx.args.slice(1), ctx);
    if (first === "mcpcast") {
      return await (await import("./mcpcast/mod.ts")).mcpcastCommand(ctx.args.slice(1), ctx);
    }
    throw new UsageError(`unknown command '${first}'`);
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.stderr(`agentry: ${error.message} (see agentry --help)`);
      return EXIT.usage;
    }
    if (error instanceof CliFailure) {
      ctx.stderr(`agentry: ${error.message}`);
      return EXIT.failure;
    }
    ctx.stderr(
      `agentry: unexpected error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`,
    );
    return EXIT.failure;
  }
}

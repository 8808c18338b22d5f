/**
 * The `agentry` command line.
 *
 * @module
 */

import { VERSION } from "../version.ts";
import type { CliContext } from "./cli_context.ts";
import { COMMANDS, groupHelp, GROUPS } from "./commands.ts";
import { CliFailure, EXIT, UsageError } from "./exit.ts";
import { permissionProblem } from "./permission_problem.ts";
import { didYouMean, suggest } from "./suggest.ts";

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
  help [COMMAND]    show the help of a command, e.g. agentry help runtime start

Options:
  -h, --help        show this help (also: agentry <command> --help)
  -V, --version     print the version
`;

const HELP_FLAGS = ["-h", "--help"];
const TOP_FLAGS = [...HELP_FLAGS, "-V", "--version"];

/** Runs the CLI and resolves its exit code. A usage error points to the help of the command used. */
export async function runCli(ctx: CliContext): Promise<number> {
  const used = { help: "agentry" };
  try {
    return await dispatch(ctx.args, ctx, used);
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.stderr(`agentry: ${error.message} (see ${used.help} --help)`);
      return EXIT.usage;
    }
    if (error instanceof CliFailure) {
      ctx.stderr(`agentry: ${error.message}`);
      return EXIT.failure;
    }
    const permission = permissionProblem(error);
    if (permission !== undefined) {
      ctx.stderr(`agentry: ${permission}`);
      return EXIT.failure;
    }
    ctx.stderr(
      `agentry: unexpected error: ${error instanceof Error ? error.stack ?? error.message : String(error)}`,
    );
    return EXIT.failure;
  }
}

/** Runs the command `args` name; `used.help` follows the words matched (`agentry runtime start`). */
async function dispatch(args: readonly string[], ctx: CliContext, used: { help: string }): Promise<number> {
  const [first, ...rest] = args;
  if (first === undefined) {
    ctx.stderr(MAIN_HELP.trimEnd());
    return EXIT.usage;
  }
  if (HELP_FLAGS.includes(first) || (first === "help" && rest.length === 0)) {
    ctx.stdout(MAIN_HELP.trimEnd());
    return EXIT.ok;
  }
  if (first === "-V" || first === "--version") {
    ctx.stdout(`agentry ${VERSION}`);
    return EXIT.ok;
  }
  if (first.startsWith("-")) throw new UsageError(`unknown option '${first}'${didYouMean(first, TOP_FLAGS)}`);
  if (first === "help") {
    const flag = rest.find((word) => word.startsWith("-"));
    if (flag !== undefined) throw new UsageError(`help takes command names, not '${flag}'`);
    return await dispatch([...rest, "--help"], ctx, used);
  }
  const group = GROUPS[first];
  if (group !== undefined) {
    used.help = `agentry ${first}`;
    const [sub, ...subArgs] = rest;
    const names = Object.keys(group.commands);
    if (sub !== undefined && HELP_FLAGS.includes(sub)) {
      ctx.stdout(groupHelp(first));
      return EXIT.ok;
    }
    if (sub === undefined || sub.startsWith("-")) {
      throw new UsageError(`${first} needs a subcommand: ${names.join(", ")}`);
    }
    const command = group.commands[sub];
    if (command === undefined) {
      throw new UsageError(`unknown ${first} command '${sub}'${didYouMean(sub, names)}`);
    }
    used.help = `agentry ${first} ${sub}`;
    return await command.run(helpWins(subArgs), ctx);
  }
  const command = COMMANDS[first];
  if (command === undefined) throw new UsageError(`unknown command '${first}'${commandSuggestion(first)}`);
  used.help = `agentry ${first}`;
  return await command.run(helpWins(rest), ctx);
}

/** `--help` anywhere among a command's flags (before a `--`) shows its help, whatever else is wrong. */
function helpWins(args: readonly string[]): readonly string[] {
  const end = args.indexOf("--");
  const flags = end === -1 ? args : args.slice(0, end);
  return flags.some((word) => HELP_FLAGS.includes(word)) ? ["--help"] : args;
}

/** `; did you mean serve?` for `serv`, `; did you mean runtime start?` for `start` or `strat`. */
function commandSuggestion(word: string): string {
  const full = new Map<string, string>([
    ...[...Object.keys(GROUPS), ...Object.keys(COMMANDS), "help"].map((name) => [name, name] as const),
    ...Object.entries(GROUPS).flatMap(([group, { commands }]) =>
      Object.keys(commands).map((sub) => [sub, `${group} ${sub}`] as const)
    ),
  ]);
  const found = full.get(word) ?? suggest(word, [...full.keys()]);
  return found === undefined ? "" : `; did you mean ${full.get(found) ?? found}?`;
}

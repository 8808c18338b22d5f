/**
 * The commands of `agentry`, grouped as the help lists them, and the help texts of the groups.
 * Each command's module is imported only when it runs, so one command does not pay for the others'
 * dependencies (the control API, the MCP SDK).
 *
 * @module
 */

import type { CliContext } from "./cli_context.ts";

/** A command: what the help says of it and how it runs (with the arguments after its name). */
export interface Command {
  /** One line for the list in a help text. */
  summary: string;
  /** Runs the command. */
  run(args: readonly string[], ctx: CliContext): Promise<number>;
}

/** A word that groups subcommands (`runtime`, `audit`). */
export interface CommandGroup {
  /** The subcommands, by name. */
  commands: Record<string, Command>;
}

/** The groups, by name. */
export const GROUPS: Readonly<Record<string, CommandGroup>> = {
  runtime: {
    commands: {
      start: {
        summary: "serve the control API for a runtime of agent processes",
        run: async (args, ctx) => (await import("./runtime_start.ts")).runtimeStart(args, ctx),
      },
    },
  },
  audit: {
    commands: {
      verify: {
        summary: "check the HMAC chain of MCP audit logs",
        run: async (args, ctx) => (await import("./audit_verify.ts")).auditVerify(args, ctx),
      },
    },
  },
};

/** The commands that stand alone, by name. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    summary: "serve the MCP tool server a module exports (stdio, http or sse)",
    run: async (args, ctx) => (await import("./serve.ts")).serve(args, ctx),
  },
  mcpcast: {
    summary: "turn an OpenAPI/Swagger spec into an MCP server project",
    run: async (args, ctx) => (await import("./mcpcast/mod.ts")).mcpcastCommand(args, ctx),
  },
};

/** Help text of a group, e.g. `agentry runtime --help`. */
export function groupHelp(name: string): string {
  const commands = Object.entries(GROUPS[name].commands);
  const width = Math.max(...commands.map(([sub]) => sub.length)) + 4;
  return [
    `Usage: agentry ${name} <command> [options]`,
    "",
    "Commands:",
    ...commands.map(([sub, command]) => `  ${sub.padEnd(width)}${command.summary}`),
    "",
    `Run agentry ${name} <command> --help for a command's options.`,
  ].join("\n");
}

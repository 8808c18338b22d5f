/**
 * `agentry audit verify FILE...`: checks the HMAC chain of MCP audit logs.
 *
 * Needs read access to the files and env access to the key variables (e.g.
 * `deno run --allow-read=audit.jsonl --allow-env=AGENTRY_AUDIT_SECRET main.ts audit verify audit.jsonl`).
 *
 * @module
 */

import { type AuditProblem, type AuditReport, verifyAuditLog } from "../mcp/mod.ts";
import type { CliContext } from "./cli_context.ts";
import { EXIT, UsageError } from "./exit.ts";
import { parseFlags } from "./parse_flags.ts";
import { permissionProblem } from "./permission_problem.ts";
import { unsetVariableReason } from "../_util/host_env.ts";

/** The variable read for the key when no `--key-env` is given. */
export const DEFAULT_KEY_VARIABLE = "AGENTRY_AUDIT_SECRET";

/** Help text of `agentry audit verify`. */
export const AUDIT_VERIFY_HELP = `Usage: agentry audit verify FILE... [options]

Check the HMAC chain of MCP audit logs written by the audit middleware. Several files are checked
as one log, in the order given (rotated files oldest first).

Options:
  --key-env VAR   read the key from variable VAR (default ${DEFAULT_KEY_VARIABLE}); repeat it to also
                  accept older keys (the first is the current key)
  --anchor HASH   start from this hash: the hmac of the last entry checked before (a previous run's
                  last hash), or the prev_hash of the first entry to check
  --strict        treat warnings (truncated line, crash fragment, chain reset) as failures
  --json          print the report as JSON on stdout
  -h, --help      show this help

Permissions: read access to the files, env access to the key variables, e.g.
  deno run --allow-read=audit.jsonl --allow-env=${DEFAULT_KEY_VARIABLE} main.ts audit verify audit.jsonl

Exit status: 0 intact, 1 tampered (or warnings with --strict), 2 unreadable file, missing key or
permission, or wrong usage.
`;

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SHOWN = 20;

/** Runs `agentry audit verify` with the arguments after `verify`. */
export async function auditVerify(args: readonly string[], ctx: CliContext): Promise<number> {
  const options = parseVerifyArgs(args);
  if (options.help) {
    ctx.stdout(AUDIT_VERIFY_HELP.trimEnd());
    return EXIT.ok;
  }
  const keys: string[] = [];
  for (const variable of options.keyVariables) {
    const key = ctx.env(variable);
    if (!key) {
      ctx.stderr(`agentry: ${unsetVariableReason(variable)} (it must hold the audit log's HMAC key)`);
      return EXIT.usage;
    }
    keys.push(key);
  }
  let report: AuditReport;
  try {
    report = await verifyAuditLog(options.files, { keys, anchor: options.anchor });
  } catch (error) {
    // Exit 2, not 1: 1 means a tampered log.
    const reason = permissionProblem(error) ??
      `cannot read the audit log: ${error instanceof Error ? error.message : String(error)}`;
    ctx.stderr(`agentry: ${reason}`);
    return EXIT.usage;
  }
  if (options.json) ctx.stdout(JSON.stringify(report));
  else for (const line of summary(report)) ctx.stderr(line);
  if (!report.ok) return EXIT.failure;
  return options.strict && report.warnings.length > 0 ? EXIT.failure : EXIT.ok;
}

interface VerifyOptions {
  files: string[];
  keyVariables: string[];
  anchor?: string;
  strict: boolean;
  json: boolean;
  help: boolean;
}

function parseVerifyArgs(args: readonly string[]): VerifyOptions {
  const { values, positionals } = parseFlags(args, {
    positionals: true,
    flags: {
      "key-env": { type: "string", multiple: true },
      anchor: { type: "string" },
      strict: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const keyVariables = values["key-env"] ?? [DEFAULT_KEY_VARIABLE];
  const options = { ...values, files: positionals, keyVariables, help: values.help };
  if (options.help) return options;
  if (positionals.length === 0) throw new UsageError("audit verify needs at least one FILE");
  const bad = keyVariables.find((name) => !VARIABLE.test(name));
  if (bad !== undefined) throw new UsageError(`--key-env needs a variable name, not '${bad}'`);
  if (values.anchor !== undefined && !/^[0-9a-f]{64}$/.test(values.anchor)) {
    throw new UsageError("--anchor needs a hash of 64 lower-case hex characters");
  }
  return options;
}

/** The human summary: a verdict line, then problems and warnings. */
function summary(report: AuditReport): string[] {
  const restarts = `${report.restarts} restart${report.restarts === 1 ? "" : "s"}`;
  const entries = `${report.entries} entr${report.entries === 1 ? "y" : "ies"}`;
  const lines = report.ok
    ? [
      `audit log intact: ${entries}, ${restarts}, last seq ${report.lastSeq ?? "-"}, last hash ${
        report.lastHash ?? "-"
      }`,
    ]
    : [`audit log TAMPERED: ${report.problems.length} problem(s) in ${entries}`];
  lines.push(...report.problems.slice(0, SHOWN).map((problem) => `  ${describe(problem)}`));
  if (report.problems.length > SHOWN) {
    lines.push(`  ... and ${report.problems.length - SHOWN} more (see --json)`);
  }
  lines.push(...report.warnings.slice(0, SHOWN).map((warning) => `  warning: ${describe(warning)}`));
  if (report.warnings.length > SHOWN) lines.push(`  ... and ${report.warnings.length - SHOWN} more warnings`);
  return lines;
}

function describe(problem: AuditProblem): string {
  const facts = [
    ...(problem.seq === undefined ? [] : [`seq ${problem.seq}`]),
    ...(problem.count === undefined ? [] : [`count ${problem.count}`]),
  ];
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return `${where}: ${problem.kind}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}: ${problem.detail}`;
}

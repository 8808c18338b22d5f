/**
 * Deploy checks for configs that arrive over the control API: programs on the host, `${VAR}` references
 * and file system paths. Manifests on the host are not subject to them.
 *
 * @module
 */

import { isCommandHook, isProgramServer, joinPath, type ProcessConfig } from "../config/mod.ts";
import { findEnvReferences } from "./env_refs.ts";

export { checkPath, checkPaths, checkTriggerPaths, configPaths } from "./path_policy.ts";

/** What API deploys may do. */
export interface DeployPolicy {
  /** Permits configs that start programs or run agent-written code on the host. */
  allowCommandDeploys: boolean;
  /** Permits `${VAR}` references to any host environment variable. */
  allowEnvReferences: boolean;
  /** Variables that may be referenced while `allowEnvReferences` is off. */
  allowedEnvVars: ReadonlySet<string>;
  /** Directory that file system paths in configs must lie in. */
  dataDir: string;
  /** Directory relative paths resolve against. */
  cwd: string;
}

/** Error codes of refused deploys (all answered with status 403). */
export type PolicyViolationCode = "COMMANDS_NOT_ALLOWED" | "ENV_REFERENCES_NOT_ALLOWED" | "PATH_NOT_ALLOWED";

/** A refused deploy: the code, a message safe to answer with, and the offending JSON paths. */
export interface PolicyViolation {
  /** Error code for the API answer. */
  code: PolicyViolationCode;
  /** Message naming the paths and how to allow them. */
  message: string;
  /** Offending paths, e.g. `servers.fs`, `hooks[0]`, `config.servers.gh.bearer_token`. */
  where: string[];
}

/** Body paths never checked for references: the instructions text. */
export const INSTRUCTIONS_PATHS: readonly string[] = ["config.instructions", "instructions"];

/** Options of {@linkcode checkEnvReferences}. */
export interface EnvCheckOptions {
  /** Formatted path put before every reported path (e.g. `budget` for a PATCH body). */
  prefix?: string;
  /** More body paths to leave unchecked (besides {@linkcode INSTRUCTIONS_PATHS}). */
  skip?: (path: string) => boolean;
}

/** `prefix` followed by an already formatted `path`. */
export function prefixPath(prefix: string, path: string): string {
  if (prefix === "") return path;
  if (path === "") return prefix;
  return path.startsWith("[") ? `${prefix}${path}` : `${prefix}.${path}`;
}

/**
 * Refuses `${VAR}` references to variables outside `policy.allowedEnvVars`, anywhere in `body` except the
 * instructions text, unless `policy.allowEnvReferences` is on.
 */
export function checkEnvReferences(
  body: unknown,
  policy: DeployPolicy,
  options: EnvCheckOptions = {},
): PolicyViolation | undefined {
  if (policy.allowEnvReferences) return undefined;
  const skip = (path: string) => INSTRUCTIONS_PATHS.includes(path) || (options.skip?.(path) ?? false);
  const refused = findEnvReferences(body, { skip }).filter((ref) => !policy.allowedEnvVars.has(ref.variable));
  if (refused.length === 0) return undefined;
  const where = [...new Set(refused.map((ref) => prefixPath(options.prefix ?? "", ref.path) || "(body)"))];
  const variables = [...new Set(refused.map((ref) => ref.variable))];
  return {
    code: "ENV_REFERENCES_NOT_ALLOWED",
    message: `\${VAR} references to host environment variables are not allowed (at ${where.join(", ")}). ` +
      `To allow them, start the runtime with --allow-env-var NAME for each variable ` +
      `(${variables.join(", ")}), or with --allow-env-references.`,
    where,
  };
}

/** Where a config starts programs or runs agent-written code on the host. */
export function commandSources(config: ProcessConfig): string[] {
  const where: string[] = [];
  for (const [name, server] of Object.entries(config.servers)) {
    if (isProgramServer(server)) where.push(joinPath("servers", name));
  }
  config.hooks.forEach((hook, index) => {
    if (isCommandHook(hook)) where.push(joinPath("hooks", index));
  });
  if (config.execution_mode === "open" && config.open_mode.allow_tool_creation) {
    where.push("open_mode.allow_tool_creation");
  }
  return where;
}

/**
 * Refuses program-starting servers, command hooks and open mode with tool creation, unless
 * `policy.allowCommandDeploys` is on.
 */
export function checkCommands(
  config: ProcessConfig,
  policy: DeployPolicy,
  options: { prefix?: string } = {},
): PolicyViolation | undefined {
  if (policy.allowCommandDeploys) return undefined;
  const where = commandSources(config).map((path) => prefixPath(options.prefix ?? "", path));
  if (where.length === 0) return undefined;
  return {
    code: "COMMANDS_NOT_ALLOWED",
    message: `This config runs programs or agent-written code on the host (${where.join(", ")}). ` +
      "To allow it, start the runtime with --allow-command-deploys (open mode also passes with " +
      "open_mode.allow_tool_creation false).",
    where,
  };
}

/**
 * Path checks: file system paths in API-deployed configs must lie inside the data directory, with no
 * `..`, no `~`, no `${VAR}` and no symlink leading out.
 *
 * @module
 */

import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import {
  hasEnvReference,
  joinPath,
  journalEnabled,
  type ProcessConfig,
  type TriggerConfig,
} from "../config/mod.ts";
import { type DeployPolicy, type PolicyViolation, prefixPath } from "./deploy_policy.ts";

/** A path named by a config. */
export interface ConfigPath {
  /** The path as written. */
  path: string;
  /** Where the config names it, e.g. `journal.path`. */
  where: string;
  /** True when the process writes there (journal, memory); false when it only reads (file watch). */
  write: boolean;
}

/** The paths a trigger names (a file-watch trigger's `watch_path`); `where` is prefixed by `prefix`. */
export function triggerPaths(trigger: TriggerConfig, prefix = ""): ConfigPath[] {
  if (trigger.type !== "file_watch") return [];
  return [{ path: trigger.watch_path, where: joinPath(prefix, "watch_path"), write: false }];
}

/** The file system paths a config names. */
export function configPaths(config: ProcessConfig): ConfigPath[] {
  const paths: ConfigPath[] = [];
  const journal = config.journal;
  if (journalEnabled(journal) && journal.backend !== "memory" && journal.path !== undefined) {
    paths.push({ path: journal.path, where: "journal.path", write: true });
  }
  const memory = config.context.memory_persist_directory;
  if (memory !== undefined) {
    paths.push({ path: memory, where: "context.memory_persist_directory", write: true });
  }
  config.triggers.forEach((trigger, index) =>
    paths.push(...triggerPaths(trigger, joinPath("triggers", index)))
  );
  return paths;
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function isNotFound(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound;
}

/** Real path of the longest existing prefix of `path`; undefined when it cannot be known safely. */
async function realExistingPrefix(path: string): Promise<string | undefined> {
  let current = path;
  while (true) {
    try {
      return await Deno.realPath(current);
    } catch (error) {
      if (!isNotFound(error)) return undefined;
    }
    try {
      await Deno.lstat(current);
      return undefined; // it exists but does not resolve: a dangling symlink
    } catch (error) {
      if (!isNotFound(error)) return undefined;
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * The runtime's own entries in the data directory, which no config may name: the process store, the spool
 * (queued events, inbox, context), the lock file and the generated API token. A journal pointed there would
 * corrupt them.
 */
export const RESERVED_DATA_PATHS: readonly string[] = ["processes", "queues", "runtime.lock", "api_token"];

/**
 * True when `path` may be used: no leading `~`, no `..` segment, no `${VAR}`, inside `policy.dataDir`
 * (relative paths resolve against `policy.cwd`) but not inside one of its {@linkcode RESERVED_DATA_PATHS},
 * and no symlink on the way leading out. Paths lexically outside are refused without touching the file system.
 */
export async function checkPath(path: string, policy: DeployPolicy): Promise<boolean> {
  if (path === "" || path.startsWith("~") || path.includes("\0") || hasEnvReference(path)) return false;
  if (path.split(/[\\/]/).includes("..")) return false;
  const dataDir = resolve(policy.cwd, policy.dataDir);
  const target = resolve(policy.cwd, path);
  if (!isInside(target, dataDir) || isReserved(target, dataDir)) return false;
  let realDataDir: string;
  try {
    realDataDir = await Deno.realPath(dataDir);
  } catch (error) {
    return isNotFound(error); // no data directory yet: the lexical check is all there is
  }
  const realTarget = await realExistingPrefix(target);
  return realTarget !== undefined && isInside(realTarget, realDataDir) &&
    !isReserved(realTarget, realDataDir);
}

function isReserved(target: string, dataDir: string): boolean {
  return RESERVED_DATA_PATHS.some((entry) => isInside(target, resolve(dataDir, entry)));
}

async function refusePaths(
  paths: readonly ConfigPath[],
  policy: DeployPolicy,
): Promise<PolicyViolation | undefined> {
  const where: string[] = [];
  for (const entry of paths) {
    if (!await checkPath(entry.path, policy)) where.push(entry.where);
  }
  if (where.length === 0) return undefined;
  return {
    code: "PATH_NOT_ALLOWED",
    message:
      `Paths must lie inside the runtime's data directory, outside its own ${
        RESERVED_DATA_PATHS.join(", ")
      }, ` +
      `without "..", "~", \${VAR} references or symlinks leading out (at ${where.join(", ")}).`,
    where,
  };
}

/** Refuses a config whose {@linkcode configPaths} are not all allowed by {@linkcode checkPath}. */
export function checkPaths(
  config: ProcessConfig,
  policy: DeployPolicy,
  options: { prefix?: string } = {},
): Promise<PolicyViolation | undefined> {
  const prefix = options.prefix ?? "";
  return refusePaths(configPaths(config).map((p) => ({ ...p, where: prefixPath(prefix, p.where) })), policy);
}

/** Options of {@linkcode checkTriggerPaths}. */
export interface TriggerPathOptions {
  /** Formatted path put before `watch_path` in `where` (e.g. `triggers[2]`). @default "" */
  prefix?: string;
}

/** The path check for one trigger (POST triggers, an open-mode agent's add_trigger). */
export function checkTriggerPaths(
  trigger: TriggerConfig,
  policy: DeployPolicy,
  options: TriggerPathOptions = {},
): Promise<PolicyViolation | undefined> {
  return refusePaths(triggerPaths(trigger, options.prefix ?? ""), policy);
}

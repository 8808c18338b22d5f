/**
 * Finding and resolving `${VAR}` references in JSON-like values (object keys included).
 * Paths use the config issue notation: `servers.github.headers.Authorization`, `triggers[0].topic`.
 *
 * @module
 */

import { envReferenceNames, envReferencePattern, joinPath } from "../config/mod.ts";

/** One `${VAR}` reference and where it is. */
export interface EnvReference {
  /** Path of the string (or of the object entry whose key holds the reference); "" for the root. */
  path: string;
  /** Referenced variable name. */
  variable: string;
}

/** Options of {@linkcode findEnvReferences} and {@linkcode resolveEnvReferences}. */
export interface EnvWalkOptions {
  /** Paths for which this returns true are left alone (not searched, not resolved). */
  skip?: (path: string) => boolean;
}

/** Thrown by {@linkcode resolveEnvReferences} for a variable without a value. For logs only. */
export class UnresolvedEnvReferenceError extends Error {
  /** The variable that could not be resolved. */
  readonly variable: string;
  /** Where the reference is. */
  readonly path: string;

  /** Creates the error; the message names the path but not the variable. */
  constructor(variable: string, path: string) {
    super(`an environment variable reference at ${path === "" ? "(root)" : path} could not be resolved`);
    this.name = "UnresolvedEnvReferenceError";
    this.variable = variable;
    this.path = path;
  }
}

/** True for `{}` literals and `Object.create(null)` objects (not class instances). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Every `${VAR}` reference in strings and object keys of `value`, depth first.
 *
 * @example
 * ```ts
 * import { findEnvReferences } from "./env_refs.ts";
 * findEnvReferences({ servers: { gh: { bearer_token: "${GH_TOKEN}" } } });
 * // [{ path: "servers.gh.bearer_token", variable: "GH_TOKEN" }]
 * ```
 */
export function findEnvReferences(value: unknown, options: EnvWalkOptions = {}): EnvReference[] {
  const found: EnvReference[] = [];
  const open = new Set<object>();
  const visit = (node: unknown, path: string): void => {
    if (options.skip?.(path)) return;
    if (typeof node === "string") {
      for (const variable of envReferenceNames(node)) found.push({ path, variable });
      return;
    }
    const container = Array.isArray(node) || isPlainObject(node);
    if (!container || open.has(node)) return;
    open.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, joinPath(path, index)));
    } else {
      for (const [key, child] of Object.entries(node)) {
        const childPath = joinPath(path, key);
        if (options.skip?.(childPath)) continue;
        for (const variable of envReferenceNames(key)) found.push({ path: childPath, variable });
        visit(child, childPath);
      }
    }
    open.delete(node);
  };
  visit(value, "");
  return found;
}

/**
 * A deep copy of `value` with every `${VAR}` replaced by `lookup(VAR)` (in keys too). Functions and
 * non-plain objects are kept by reference; skipped paths are kept as they are.
 *
 * @throws {UnresolvedEnvReferenceError} when `lookup` returns undefined.
 * @throws {TypeError} when the value is cyclic.
 */
export function resolveEnvReferences<T>(
  value: T,
  lookup: (name: string) => string | undefined,
  options: EnvWalkOptions = {},
): T {
  const open = new Set<object>();
  const resolveText = (text: string, path: string): string =>
    text.replace(envReferencePattern(), (_match, name: string) => {
      const resolved = lookup(name);
      if (resolved === undefined) throw new UnresolvedEnvReferenceError(name, path);
      return resolved;
    });
  const copy = (node: unknown, path: string): unknown => {
    if (options.skip?.(path)) return node;
    if (typeof node === "string") return resolveText(node, path);
    if (!Array.isArray(node) && !isPlainObject(node)) return node;
    if (open.has(node)) throw new TypeError(`cyclic value at ${path === "" ? "(root)" : path}`);
    open.add(node);
    let result: unknown;
    if (Array.isArray(node)) {
      result = node.map((item, index) => copy(item, joinPath(path, index)));
    } else {
      result = Object.fromEntries(
        Object.entries(node).map(([key, child]) => {
          const childPath = joinPath(path, key);
          if (options.skip?.(childPath)) return [key, child];
          return [resolveText(key, childPath), copy(child, childPath)];
        }),
      );
    }
    open.delete(node);
    return result;
  };
  return copy(value, "") as T;
}

/**
 * Field paths as issues and policy violations show them: `triggers[0].cron_expression`,
 * `servers.github.url`, `servers["my.server"]`.
 *
 * @module
 */

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/** Appends one segment (object key or array index) to a formatted path. */
export function joinPath(path: string, segment: PropertyKey): string {
  if (typeof segment === "number") return `${path}[${segment}]`;
  const key = String(segment);
  if (!PLAIN_KEY.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

/**
 * Formats path segments, starting from `prefix` (itself already formatted).
 *
 * @example
 * ```ts
 * import { formatPath } from "./field_path.ts";
 * formatPath(["triggers", 0, "topic"]); // "triggers[0].topic"
 * ```
 */
export function formatPath(segments: readonly PropertyKey[], prefix = ""): string {
  return segments.reduce<string>((path, segment) => joinPath(path, segment), prefix);
}

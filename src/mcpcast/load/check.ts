/**
 * Checking and scrubbing a parsed spec in one iterative walk: the node budget (every YAML alias use
 * counts, so an alias bomb stops early instead of expanding), the depth cap, the text scrub of every
 * key and string value, and the shape of `info` and `paths`.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import { scrubText } from "../_scrub.ts";
import type { SpecLimits } from "./limits.ts";
import { isMapping, kindOf, setOwn, type SpecMapping } from "../_spec_values.ts";

/** Options of {@link checkDocument}. */
export interface CheckDocumentOptions {
  /**
   * Build a scrubbed copy instead of scrubbing in place (for documents the caller owns).
   * @default false
   */
  copy?: boolean;
}

type Container = SpecMapping | unknown[];

/**
 * The document, checked and scrubbed. Throws {@link McpcastError} when it is not a mapping, holds more
 * than `limits.maxNodes` values (scalars and containers, shared ones counted at every use), nests
 * deeper than `limits.maxDepth`, or has an `info` or `paths` that is not a mapping.
 */
export function checkDocument(
  root: unknown,
  limits: Pick<SpecLimits, "maxNodes" | "maxDepth">,
  options: CheckDocumentOptions = {},
): SpecMapping {
  if (!isMapping(root)) {
    throw new McpcastError(`spec must be a mapping (an OpenAPI or Swagger document), got ${kindOf(root)}`);
  }
  const copy = options.copy ?? false;
  let nodes = 1;
  // Pending containers as flat triples (source, target, depth): no object per container, since a large
  // spec has hundreds of thousands of them.
  const stack: unknown[] = [];
  const enter = (value: unknown, depth: number): unknown => {
    nodes += 1;
    if (nodes > limits.maxNodes) {
      throw new McpcastError(
        `spec has more than ${limits.maxNodes} values (YAML aliases count at every use); ` +
          "raise MCPCAST_MAX_SPEC_NODES if the spec is genuine",
      );
    }
    if (typeof value === "string") return scrubText(value);
    if (!Array.isArray(value) && !isMapping(value)) return value;
    if (depth + 1 > limits.maxDepth) {
      throw new McpcastError(`spec is nested more than ${limits.maxDepth} levels deep`);
    }
    const target = prepare(value, copy);
    stack.push(value, target, depth + 1);
    return target;
  };
  const top = prepare(root, copy) as SpecMapping;
  stack.push(root, top, 1);
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const target = stack.pop() as Container;
    const source = stack.pop() as Container;
    if (Array.isArray(source)) {
      const out = target as unknown[];
      for (let i = 0; i < source.length; i++) out[i] = enter(source[i], depth);
      continue;
    }
    const out = target as SpecMapping;
    // `for...in` instead of `Object.keys`: no array per mapping. Mappings are plain objects, and neither
    // of their possible prototypes (Object.prototype, null) has enumerable keys.
    for (const key in source) {
      const value = enter(source[key], depth);
      if (out !== source) setOwn(out, scrubText(key), value);
      else if (value !== source[key]) out[key] = value;
    }
  }
  for (const key of ["info", "paths"]) {
    if (key in top && !isMapping(top[key])) {
      throw new McpcastError(`spec '${key}' must be a mapping, got ${kindOf(top[key])}`);
    }
  }
  return top;
}

/** The container a walk fills: the source itself when it can be scrubbed in place, else a fresh one. */
function prepare(value: Container, copy: boolean): Container {
  if (Array.isArray(value)) return copy ? new Array(value.length) : value;
  if (copy) return {};
  for (const key in value) {
    if (scrubText(key) !== key) return {};
  }
  return value;
}

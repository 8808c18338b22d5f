/**
 * The limits that keep a hostile or broken spec from exhausting memory or time while loading. Each
 * has a default and an environment variable that overrides it; an invalid value is an error naming
 * the variable.
 *
 * | Variable | Default | What it bounds |
 * |---|---|---|
 * | `MCPCAST_MAX_SPEC_BYTES` | 20 MiB | file size, inline text, `Content-Length` and bytes streamed |
 * | `MCPCAST_FETCH_SECONDS` | 60 | wall-clock time of a spec download, headers to last byte |
 * | `MCPCAST_MAX_SPEC_NODES` | 2,000,000 | values in the parsed document, every YAML alias use counted |
 *
 * Nesting depth is capped at {@link MAX_SPEC_DEPTH} levels.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import type { EnvLookup } from "../types.ts";

/** Default of `MCPCAST_MAX_SPEC_BYTES`: 20 MiB. */
export const DEFAULT_MAX_SPEC_BYTES: number = 20 * 1024 * 1024;

/** Default of `MCPCAST_FETCH_SECONDS`: a spec download must finish within 60 seconds. */
export const DEFAULT_FETCH_SECONDS: number = 60;

/** Default of `MCPCAST_MAX_SPEC_NODES`: two million values (the GitHub REST spec has about 260,000). */
export const DEFAULT_MAX_SPEC_NODES: number = 2_000_000;

/** Deepest nesting a spec may have (the document itself is level 1). */
export const MAX_SPEC_DEPTH: number = 256;

/** The limits in force, resolved from the environment. */
export interface SpecLimits {
  /** Largest spec, in bytes. */
  maxBytes: number;
  /** Wall-clock limit of a download, in seconds. */
  fetchSeconds: number;
  /** Most values a parsed spec may hold. */
  maxNodes: number;
  /** Deepest nesting. */
  maxDepth: number;
}

/**
 * The limits in force: defaults, overridden by `MCPCAST_MAX_SPEC_BYTES`, `MCPCAST_FETCH_SECONDS` and
 * `MCPCAST_MAX_SPEC_NODES` when `env` has them. Throws {@link McpcastError} naming the variable when a
 * value is not a number (bytes and nodes must be integers) or not positive.
 */
export function readSpecLimits(env: EnvLookup): SpecLimits {
  return {
    maxBytes: readLimit(env, "MCPCAST_MAX_SPEC_BYTES", DEFAULT_MAX_SPEC_BYTES, true),
    fetchSeconds: readLimit(env, "MCPCAST_FETCH_SECONDS", DEFAULT_FETCH_SECONDS, false),
    maxNodes: readLimit(env, "MCPCAST_MAX_SPEC_NODES", DEFAULT_MAX_SPEC_NODES, true),
    maxDepth: MAX_SPEC_DEPTH,
  };
}

function readLimit(env: EnvLookup, name: string, fallback: number, integer: boolean): number {
  const raw = env(name)?.trim();
  if (raw === undefined || raw === "") return fallback;
  const pattern = integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)$/;
  const value = Number(raw);
  if (!pattern.test(raw) || !Number.isFinite(value)) {
    throw new McpcastError(`${name} must be ${integer ? "an integer" : "a number"}`);
  }
  if (value <= 0) throw new McpcastError(`${name} must be positive`);
  if (integer && !Number.isSafeInteger(value)) throw new McpcastError(`${name} is too large`);
  return value;
}

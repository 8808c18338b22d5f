/**
 * The options and answer of {@linkcode curate}, and the checks of the options that run before anything
 * else (exactly one model source, bounds, no unknown keys).
 *
 * @module
 */

import { checkOptionKeys } from "../../_util/option_keys.ts";
import { McpcastError } from "../errors.ts";
import { type Completer, modelCompleter } from "../model/mod.ts";
import type { McpcastPlan } from "../plan/mod.ts";
import { SAFETY_PROFILES } from "../plan/mod.ts";
import type { ApprovalMode, AuthMode, EnvLookup, SafetyProfile } from "../types.ts";

/** Options of `curate`. */
export interface CurateOptions {
  /** `"<provider>:<model>"`, used through `modelCompleter` (needs `env`); exclusive with `complete`. */
  model?: string;
  /** Bring your own model: `(system, user, signal?) => Promise<string>`; exclusive with `model`. */
  complete?: Completer;
  /** Where the provider of `model` reads its variables (keys, base URLs); required with `model`. */
  env?: EnvLookup;
  /** The fetch the provider of `model` uses. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Most tools the curated plan may have (at least 1). @default 25 */
  maxTools?: number;
  /** Which risk classes the plan exposes, applied after the model proposes. @default "read-only" */
  profile?: SafetyProfile;
  /** API base URL; by default the spec's. */
  baseUrl?: string;
  /** How the generated server authenticates upstream. @default as `buildPlan` chooses (`defaultAuth`) */
  auth?: AuthMode;
  /** Who approves gated calls; unset means the default for `auth`. */
  approval?: ApprovalMode;
  /** API name. @default the spec's slug */
  name?: string;
  /** What the API is for, shown to the model (at most 500 characters are used). @default the spec's */
  description?: string;
  /** Where the spec came from, recorded as `api.spec_source` (a URL in public form). @default the spec's */
  specSource?: string;
  /** Fresh completions tried before giving up (at least 1). @default 3 */
  maxAttempts?: number;
  /** Interrupts curation between and during attempts; `curate` rejects with its reason. */
  signal?: AbortSignal;
  /** Told when an attempt starts, when it has violations, and when curation is done. */
  onProgress?: (event: CurationProgress) => void;
}

/** What `curate` reports while it works (for a progress display). */
export type CurationProgress =
  | {
    /** An attempt is about to ask the model. */
    kind: "attempt";
    /** 1-based attempt number. */
    attempt: number;
    /** Attempts allowed. */
    maxAttempts: number;
  }
  | {
    /** The attempt's proposal broke rules (or was no JSON object); the next attempt gets them as feedback. */
    kind: "violations";
    /** 1-based attempt number. */
    attempt: number;
    /** One sentence per broken rule. */
    violations: string[];
  }
  | {
    /** The plan is built. */
    kind: "done";
    /** Attempts used. */
    attempts: number;
    /** Tools in the plan. */
    tools: number;
    /** Operations not exposed. */
    dropped: number;
  };

/** What `curate` answers. */
export interface CurationResult {
  /** The curated plan (valid; `dropped` holds every operation not exposed, with why). */
  plan: McpcastPlan;
  /** Attempts used. */
  attempts: number;
  /** The violations of each failed attempt, in order. */
  violations: string[][];
  /** Curated tool name to the operation ids it serves, in dispatch order (for "merged N ops"). */
  renamed: Record<string, string[]>;
  /** Sentences naming tools the server will not have, removed on the last attempt. */
  removedSentences: string[];
  /** Characters of the user prompt (the catalogue; retry feedback comes on top). */
  promptChars: number;
}

/** The options with defaults filled and the model resolved to a completer. */
export interface ResolvedCurateOptions {
  complete: Completer;
  maxTools: number;
  profile: SafetyProfile;
  maxAttempts: number;
  signal?: AbortSignal;
  onProgress: (event: CurationProgress) => void;
}

const CURATE_KEYS = {
  model: true,
  complete: true,
  env: true,
  fetch: true,
  maxTools: true,
  profile: true,
  baseUrl: true,
  auth: true,
  approval: true,
  name: true,
  description: true,
  specSource: true,
  maxAttempts: true,
  signal: true,
  onProgress: true,
} satisfies Record<keyof CurateOptions, true>;

function atLeastOne(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new McpcastError(`${what} must be an integer of at least 1`);
  }
  return value;
}

/**
 * `options` checked and resolved.
 *
 * @throws {McpcastError} for an unknown key, both or neither of `model` and `complete`, `model`
 * without `env`, `env`/`fetch` beside `complete`, a bound below 1 or an unknown profile.
 */
export function resolveCurateOptions(options: CurateOptions): ResolvedCurateOptions {
  try {
    checkOptionKeys(options, { owner: "curate", keys: CURATE_KEYS, unknown: "listed", notObject: true });
  } catch (error) {
    throw new McpcastError((error as Error).message);
  }
  const { model, complete, env } = options;
  if ((model === undefined) === (complete === undefined)) {
    throw new McpcastError('curate needs exactly one of `model` ("<provider>:<model>") and `complete`');
  }
  if (complete !== undefined && (env !== undefined || options.fetch !== undefined)) {
    throw new McpcastError("curate: `env` and `fetch` configure `model`; with `complete` they are not used");
  }
  const profile = options.profile ?? "read-only";
  if (!SAFETY_PROFILES.includes(profile)) {
    throw new McpcastError(`curate: profile must be one of ${SAFETY_PROFILES.join(", ")}`);
  }
  const maxTools = atLeastOne(options.maxTools, 25, "max_tools");
  const maxAttempts = atLeastOne(options.maxAttempts, 3, "max_attempts");
  let completer = complete;
  if (completer === undefined) {
    if (env === undefined) {
      throw new McpcastError("curate: `model` needs `env` (where the provider reads its key and base URL)");
    }
    completer = modelCompleter(model!, { env, fetch: options.fetch });
  }
  return {
    complete: completer,
    maxTools,
    profile,
    maxAttempts,
    signal: options.signal,
    onProgress: options.onProgress ?? (() => {}),
  };
}

/**
 * The generated server's tunables: the `MCPCAST_*` environment variables read once when the server is
 * built (credentials are not among them: they are read on every call, see `credential.ts`). An invalid
 * value is a {@linkcode McpcastError} naming the variable, never repeating its value.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import type { EnvLookup } from "../types.ts";
import { cleanUrlToken, urlTokenProblem } from "../_url_token.ts";

/** One documented environment variable of the generated server. */
export interface RuntimeVariable {
  /** Variable name. */
  name: string;
  /** Default, as documentation text. */
  default: string;
  /** What it does. */
  meaning: string;
  /** Auth modes it concerns; absent: every mode. */
  modes?: readonly string[];
}

/**
 * Every variable the generated server reads, in the order the README and `.env.example` list them.
 * The credentials (`MCPCAST_UPSTREAM_TOKEN`, `MCPCAST_UPSTREAM_TOKENS`) are read on every call, the
 * others once at start-up.
 */
export const RUNTIME_VARIABLES: readonly RuntimeVariable[] = [
  {
    name: "MCPCAST_UPSTREAM_TOKEN",
    default: "(none)",
    meaning: "the upstream credential for the plan's own slot: a bare token (sent as `Bearer <token>`), " +
      "`user:password` for a basic scheme, or an API key as it is (read on every call)",
    modes: ["env-token"],
  },
  {
    name: "MCPCAST_UPSTREAM_TOKEN_<SCHEME>",
    default: "(none)",
    meaning: "the credential of one security scheme (its id upper-cased, other characters as `_`), shaped " +
      "like MCPCAST_UPSTREAM_TOKEN; wins over it (read on every call)",
    modes: ["env-token"],
  },
  {
    name: "MCPCAST_CLIENT_KEYS",
    default: "(none)",
    meaning: 'JSON: client key → {"client_id", "tenant_id", "roles"}; read at start-up',
    modes: ["api-key"],
  },
  {
    name: "MCPCAST_UPSTREAM_TOKENS",
    default: "(none)",
    meaning: "JSON: tenant id → that tenant's upstream credential, or an object by security scheme id " +
      "(read on every call)",
    modes: ["api-key"],
  },
  {
    name: "MCPCAST_BASE_URL",
    default: "(the plan's)",
    meaning: "overrides the plan's base URL (a route's own base_url, from an operation-level server, stays)",
  },
  { name: "MCPCAST_TIMEOUT", default: "30", meaning: "seconds per upstream call, connect to last byte" },
  { name: "MCPCAST_MAX_RESPONSE_BYTES", default: "1048576", meaning: "largest upstream response body" },
  {
    name: "MCPCAST_ERROR_EXCERPT_CHARS",
    default: "500",
    meaning: "characters of an upstream error body quoted in the error (0 quotes none)",
  },
  { name: "MCPCAST_APPROVAL_TIMEOUT", default: "300", meaning: "seconds a gated call waits for a decision" },
  // Slice E (issue 15, item 6): the operator's standing approval.
  {
    name: "MCPCAST_APPROVE",
    default: "(none)",
    meaning: "gated tools approved for good, comma-separated (no human is asked for these)",
  },
  {
    name: "MCPCAST_MAX_PENDING",
    default: "100",
    meaning: "gated calls parked at once (pending approval)",
    modes: ["api-key"],
  },
  {
    name: "MCPCAST_MAX_PENDING_PER_TENANT",
    default: "40",
    meaning: "gated calls parked at once per tenant",
    modes: ["api-key"],
  },
  {
    name: "MCPCAST_MAX_PENDING_PER_CLIENT",
    default: "20",
    meaning: "gated calls parked at once per client",
    modes: ["api-key"],
  },
  {
    name: "MCPCAST_ALLOW_INSECURE_HTTP",
    default: "(unset)",
    meaning: '"1" lets a credential travel over plain http to a host that is not loopback',
  },
  {
    name: "MCPCAST_PUBLIC",
    default: "(unset)",
    meaning: '"1" lets an env-token or none server bind an address that is not loopback (like --public)',
    modes: ["env-token", "none"],
  },
];

/** The tunables in force. */
export interface RuntimeConfig {
  /** `MCPCAST_BASE_URL`, cleaned; overrides the plan's base URL (not a route's own `base_url`). */
  baseUrl?: string;
  /** `MCPCAST_TIMEOUT`: seconds per upstream call. @default 30 */
  timeoutSeconds: number;
  /** `MCPCAST_MAX_RESPONSE_BYTES`. @default 1048576 */
  maxResponseBytes: number;
  /** `MCPCAST_ERROR_EXCERPT_CHARS` (0 hides upstream error bodies). @default 500 */
  errorExcerptChars: number;
  /** `MCPCAST_APPROVAL_TIMEOUT`: seconds, at most 86400. @default 300 */
  approvalTimeoutSeconds: number;
  /** `MCPCAST_MAX_PENDING`. @default 100 */
  maxPending: number;
  /** `MCPCAST_MAX_PENDING_PER_TENANT`. @default 40 */
  maxPendingPerTenant: number;
  /** `MCPCAST_MAX_PENDING_PER_CLIENT`. @default 20 */
  maxPendingPerClient: number;
  /** `MCPCAST_ALLOW_INSECURE_HTTP=1`. @default false */
  allowInsecureHttp: boolean;
  /** `MCPCAST_PUBLIC=1`. @default false */
  public: boolean;
}

/** Default of `MCPCAST_MAX_RESPONSE_BYTES`: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES: number = 1024 * 1024;
/** Default of `MCPCAST_TIMEOUT`, seconds. */
export const DEFAULT_TIMEOUT_SECONDS: number = 30;
/** Default of `MCPCAST_ERROR_EXCERPT_CHARS`. */
export const DEFAULT_ERROR_EXCERPT_CHARS: number = 500;

interface NumberRule {
  integer: boolean;
  min: number;
  max?: number;
  /** Whether `min` itself is allowed. */
  inclusive: boolean;
}

function readNumber(env: EnvLookup, name: string, fallback: number, rule: NumberRule): number {
  const raw = env(name)?.trim();
  if (raw === undefined || raw === "") return fallback;
  const pattern = rule.integer ? /^\+?\d+$/ : /^\+?(\d+\.?\d*|\.\d+)$/;
  const value = Number(raw);
  if (!pattern.test(raw) || !Number.isFinite(value) || (rule.integer && !Number.isSafeInteger(value))) {
    throw new McpcastError(`${name} must be ${rule.integer ? "a whole number" : "a number"}`);
  }
  const low = rule.inclusive ? value < rule.min : value <= rule.min;
  if (low || (rule.max !== undefined && value > rule.max)) {
    const range = `${rule.inclusive ? "at least" : "above"} ${rule.min}` +
      (rule.max === undefined ? "" : ` and at most ${rule.max}`);
    throw new McpcastError(`${name} must be ${range}`);
  }
  return value;
}

function readFlag(env: EnvLookup, name: string): boolean {
  const raw = env(name)?.trim() ?? "";
  if (raw === "" || raw === "0") return false;
  if (raw === "1") return true;
  throw new McpcastError(`${name} must be "1" or unset`);
}

function readBaseUrl(env: EnvLookup): string | undefined {
  const raw = env("MCPCAST_BASE_URL");
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = cleanUrlToken(raw);
  const problem = urlTokenProblem(value, { label: "MCPCAST_BASE_URL" });
  if (problem !== undefined) throw new McpcastError(problem);
  return value;
}

/**
 * The tunables `env` sets, defaults for the rest.
 *
 * @throws {McpcastError} naming the first invalid variable.
 *
 * @example
 * ```ts
 * import { readRuntimeConfig } from "./config.ts";
 * readRuntimeConfig((name) => ({ MCPCAST_TIMEOUT: "5" })[name]).timeoutSeconds; // 5
 * ```
 */
export function readRuntimeConfig(env: EnvLookup): RuntimeConfig {
  const count = (name: string, fallback: number, min = 1) =>
    readNumber(env, name, fallback, { integer: true, min, inclusive: true });
  return {
    baseUrl: readBaseUrl(env),
    timeoutSeconds: readNumber(env, "MCPCAST_TIMEOUT", DEFAULT_TIMEOUT_SECONDS, {
      integer: false,
      min: 0,
      inclusive: false,
    }),
    maxResponseBytes: count("MCPCAST_MAX_RESPONSE_BYTES", DEFAULT_MAX_RESPONSE_BYTES),
    errorExcerptChars: count("MCPCAST_ERROR_EXCERPT_CHARS", DEFAULT_ERROR_EXCERPT_CHARS, 0),
    approvalTimeoutSeconds: readNumber(env, "MCPCAST_APPROVAL_TIMEOUT", 300, {
      integer: false,
      min: 0,
      max: 86_400,
      inclusive: false,
    }),
    maxPending: count("MCPCAST_MAX_PENDING", 100),
    maxPendingPerTenant: count("MCPCAST_MAX_PENDING_PER_TENANT", 40),
    maxPendingPerClient: count("MCPCAST_MAX_PENDING_PER_CLIENT", 20),
    allowInsecureHttp: readFlag(env, "MCPCAST_ALLOW_INSECURE_HTTP"),
    public: readFlag(env, "MCPCAST_PUBLIC"),
  };
}

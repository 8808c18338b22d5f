/**
 * The credentials of an evaluation run, without touching the process environment: the server gets
 * an environment lookup that answers a few variables over the caller's, and the MCP client the
 * headers its auth mode needs.
 *
 * | Auth mode | Environment the server sees | MCP headers |
 * |---|---|---|
 * | `passthrough` | unchanged | `authorization`: `MCPCAST_EVAL_AUTHORIZATION`, else `Bearer mcpcast-eval` |
 * | `env-token` | each unset `MCPCAST_UPSTREAM_TOKEN*` variable the plan uses: `MCPCAST_EVAL_AUTHORIZATION` (the plan's own slot), else a placeholder | none |
 * | `api-key` | the client key `mcpcast-eval` (tenant `mcpcast-eval`) merged into `MCPCAST_CLIENT_KEYS`, and that tenant's credential into `MCPCAST_UPSTREAM_TOKENS` (entries already there are kept) | `x-api-key: mcpcast-eval` |
 * | `none` | unchanged | none |
 *
 * Headers passed by the caller, else `MCPCAST_EVAL_HEADERS` (a JSON object of strings), replace the
 * defaults. Placeholders reach only mocks, or a real API
 * that then refuses them: the report advises setting `MCPCAST_EVAL_AUTHORIZATION`.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import type { McpcastPlan } from "../plan/mod.ts";
import { credentialVariables } from "../runtime/internal.ts";
import type { EnvLookup } from "../types.ts";

/** The client key, client id and tenant of the evaluation's caller (api-key plans). */
export const EVAL_KEY = "mcpcast-eval";
/** The variable holding a real upstream credential for evaluation runs. */
export const EVAL_AUTHORIZATION = "MCPCAST_EVAL_AUTHORIZATION";
/** The variable holding the MCP headers of evaluation runs (a JSON object). */
export const EVAL_HEADERS = "MCPCAST_EVAL_HEADERS";

/** What the evaluated server and its MCP client get. */
export interface EvalEnvironment {
  /** The server's environment lookup. */
  env: EnvLookup;
  /** Headers on every MCP request. */
  headers: Record<string, string>;
}

function placeholder(example: string): string {
  return example.includes(":") ? `${EVAL_KEY}:${EVAL_KEY}` : EVAL_KEY;
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

function jsonObject(raw: string | undefined): Record<string, unknown> | undefined {
  if (!present(raw)) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? value as Record<string, unknown>
      : undefined;
  } catch {
    return undefined;
  }
}

/** `raw` (a JSON object) with `key` added unless present; unparseable values are left for the server to refuse. */
function merged(raw: string | undefined, key: string, value: unknown): string | undefined {
  const object = jsonObject(raw);
  if (object === undefined || Object.hasOwn(object, key)) return raw;
  return JSON.stringify({ ...object, [key]: value });
}

/**
 * The headers in `MCPCAST_EVAL_HEADERS`, or undefined when unset.
 *
 * @throws {McpcastError} when it is not a JSON object of strings (its value is never repeated).
 */
function headersFromEnv(env: EnvLookup): Record<string, string> | undefined {
  const raw = env(EVAL_HEADERS);
  if (!present(raw)) return undefined;
  const object = jsonObject(raw);
  if (object === undefined || !Object.values(object).every((value) => typeof value === "string")) {
    throw new McpcastError(`${EVAL_HEADERS} must be a JSON object of header names to strings`);
  }
  return object as Record<string, string>;
}

function overlay(base: EnvLookup, values: Record<string, string | undefined>): EnvLookup {
  return (name) => Object.hasOwn(values, name) ? values[name] : base(name);
}

/** The environment and MCP headers for evaluating `plan`, over the caller's `env`. */
export function evalEnvironment(
  plan: McpcastPlan,
  env: EnvLookup,
  headers?: Record<string, string>,
): EvalEnvironment {
  const { api } = plan;
  const authorization = env(EVAL_AUTHORIZATION);
  const own = present(authorization) ? authorization.trim() : undefined;
  const values: Record<string, string | undefined> = {};
  let defaults: Record<string, string> = {};
  if (api.auth === "passthrough") {
    defaults = { authorization: own ?? `Bearer ${EVAL_KEY}` };
  } else if (api.auth === "env-token") {
    for (const variable of credentialVariables(api)) {
      if (present(env(variable.name))) continue;
      values[variable.name] = variable.name === "MCPCAST_UPSTREAM_TOKEN" && own !== undefined
        ? own
        : placeholder(variable.example);
    }
  } else if (api.auth === "api-key") {
    const schemes = Object.entries(api.security_schemes ?? {});
    const credential = schemes.length === 0 ? own ?? EVAL_KEY : Object.fromEntries(
      schemes.map(([id, scheme]) => [id, own ?? placeholder(scheme.type === "basic" ? ":" : "")]),
    );
    values.MCPCAST_CLIENT_KEYS = merged(env("MCPCAST_CLIENT_KEYS"), EVAL_KEY, {
      client_id: EVAL_KEY,
      tenant_id: EVAL_KEY,
    });
    values.MCPCAST_UPSTREAM_TOKENS = merged(env("MCPCAST_UPSTREAM_TOKENS"), EVAL_KEY, credential);
    defaults = { "x-api-key": EVAL_KEY };
  }
  return { env: overlay(env, values), headers: headers ?? headersFromEnv(env) ?? defaults };
}

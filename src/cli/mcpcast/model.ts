/**
 * The model of `agentry mcpcast --model`: the permissions it needs (the provider's variables, then the
 * network host they point at), checked before anything runs, and the completer and client resolved
 * from it, so that a missing key is said once, before the spec is even read. Variables are read only
 * through the `env` lookup given (the command's `ctx.env`).
 *
 * @module
 */

import type { NeededPermission } from "../../_util/permission_hint.ts";
import { type Completer, McpcastError, modelCompleter } from "../../mcpcast/mod.ts";
import {
  BUILT_IN_PROVIDERS,
  type EnvLookup,
  type ModelClient,
  parseModelString,
  ProviderRegistry,
} from "../../models/mod.ts";
import { netOf } from "./permissions.ts";

/** A model ready for curation (the completer) and evaluation (the completer and the agent's client). */
export interface ResolvedModel {
  /** `"<provider>:<model>"` as given. */
  model: string;
  /** Text completions (curation proposals, evaluation tasks). */
  complete: Completer;
  /** The agent loop's client (evaluation). */
  client: ModelClient;
}

/** The variables the provider of `model` reads (all of them: keys and base URLs). */
export function providerVariables(model: string): string[] {
  const { provider } = parseModelString(model);
  return [...BUILT_IN_PROVIDERS.find((known) => known.name === provider)?.variables ?? []];
}

function granted(variable: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "env", variable }).state === "granted";
  } catch {
    return false;
  }
}

/**
 * `mcpcast: may not read OPENAI_API_KEY: run with --allow-env=OPENAI_API_KEY,OPENAI_BASE_URL` when a
 * variable of the provider may not be read (it would read as unset), else undefined.
 */
export function modelEnvProblem(model: string): string | undefined {
  const variables = providerVariables(model);
  const missing = variables.find((variable) => !granted(variable));
  if (missing === undefined) return undefined;
  return `mcpcast: may not read ${missing} (model '${model}'): run with --allow-env=${variables.join(",")}`;
}

function value(env: EnvLookup, name: string): string | undefined {
  const found = env(name)?.trim();
  return found === undefined || found === "" ? undefined : found;
}

/** The Ollama server an `OLLAMA_HOST` value names (`http://` and port 11434 added as Ollama does). */
function ollamaUrl(host: string | undefined): URL | null {
  if (host === undefined) return URL.parse("http://localhost:11434");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) return URL.parse(host);
  const url = URL.parse(`http://${host}`);
  if (url !== null && url.port === "") url.port = "11434";
  return url;
}

/** The URL the provider of `model` sends requests to, as `env` configures it (null when unknown or unset). */
export function modelEndpoint(model: string, env: EnvLookup): URL | null {
  const { provider } = parseModelString(model);
  switch (provider) {
    case "openai":
      return URL.parse(value(env, "OPENAI_BASE_URL") ?? "https://api.openai.com/v1");
    case "anthropic":
      return URL.parse(value(env, "ANTHROPIC_BASE_URL") ?? "https://api.anthropic.com");
    case "openai-compatible": {
      const base = value(env, "OPENAI_COMPATIBLE_BASE_URL");
      return base === undefined ? null : URL.parse(base);
    }
    case "ollama":
      return ollamaUrl(value(env, "OLLAMA_HOST"));
    default:
      return null;
  }
}

/** The network permission the model needs (none when its endpoint is unknown: resolving then fails). */
export function modelNeeds(model: string, env: EnvLookup): NeededPermission[] {
  const url = modelEndpoint(model, env);
  return url === null || !/^https?:$/.test(url.protocol) ? [] : [netOf(url)];
}

/**
 * The completer and client of `model`, without calling it.
 *
 * @throws {McpcastError} `model '<m>' could not be used: ...` naming the missing variable (never a value).
 */
export function resolveModel(
  model: string,
  env: EnvLookup,
  options: { fetch?: typeof fetch } = {},
): ResolvedModel {
  const complete = modelCompleter(model, { env, fetch: options.fetch });
  let client: ModelClient;
  try {
    client = new ProviderRegistry().resolve(model, { env, fetch: options.fetch });
  } catch (error) {
    throw new McpcastError(`model '${model}' could not be used: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return { model, complete, client };
}

/**
 * The parse stage: load a spec (object, path, URL or inline text), describe the API and extract its
 * operations.
 *
 * @module
 */

import { type ExternalRefsOptions, loadExternalDocuments } from "./external_refs.ts";
import { RefResolver } from "./refs.ts";
import { securitySchemesOf } from "./security.ts";
import { describeSpec } from "./info.ts";
import { checkSpecVersion, loadSpec } from "../load/mod.ts";
import { extractOperations } from "./operations.ts";
import type { EnvLookup, ParsedSpec } from "../types.ts";

/** Options of {@link parseSpec}. */
export interface ParseSpecOptions {
  /** Base URL forced by the caller; wins over every server in the spec. */
  baseUrl?: string;
  /** The fetch used for URL sources. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Environment lookup for the `MCPCAST_*` limits and `HOME`. @default the host environment */
  env?: EnvLookup;
  /** Cancels a download; its reason is thrown as is. */
  signal?: AbortSignal;
  /**
   * Follow `$ref`s into other documents: files under the spec file's directory, and http(s)
   * documents on `allowHosts`. Off by default (such references make their operations unsupported).
   */
  externalRefs?: ExternalRefsOptions;
  /**
   * Resolve each operation's success response schema (kept for mock answers in evaluation; the plan
   * and the generated project do not use it). `false` saves memory and time on large specs.
   * @default true
   */
  responseSchemas?: boolean;
}

// Issue 15 slice F: the loaded document beside each parsed spec, off the record itself (which is
// printed and serialized), for the generated project's contract tests.
const DOCUMENTS = new WeakMap<ParsedSpec, Readonly<Record<string, unknown>>>();

/**
 * The spec document `spec` was parsed from, as loaded (checked and scrubbed), or undefined for a
 * record not made by {@linkcode parseSpec}. Pass it to `writeProject(plan, dir, { spec })` to give
 * the project its contract tests.
 */
export function specDocument(spec: ParsedSpec): Readonly<Record<string, unknown>> | undefined {
  return DOCUMENTS.get(spec);
}

/**
 * Parses an OpenAPI 3.0/3.1 or Swagger 2 spec into API facts, operations and security schemes.
 * Throws `McpcastError` for a spec that cannot be loaded, declares another format or version
 * (Swagger 1.x, OpenAPI 4, none), or has no operations.
 *
 * @example
 * ```ts
 * const spec = await parseSpec("https://petstore3.swagger.io/api/v3/openapi.json");
 * console.log(spec.info.apiName, spec.operations.length); // "petstore" 19
 * ```
 */
export async function parseSpec(
  source: string | Record<string, unknown>,
  options: ParseSpecOptions = {},
): Promise<ParsedSpec> {
  const loaded = await loadSpec(source, { fetch: options.fetch, env: options.env, signal: options.signal });
  checkSpecVersion(loaded.document);
  const external = options.externalRefs === undefined ? undefined : await loadExternalDocuments(loaded, {
    allowHosts: options.externalRefs.allowHosts,
    fetch: options.fetch,
    env: options.env,
    signal: options.signal,
  });
  const info = describeSpec(loaded.document, {
    sourceLabel: loaded.sourceLabel,
    specUrl: loaded.specUrl,
    baseUrl: options.baseUrl,
  });
  const operations = extractOperations(loaded.document, {
    baseUrl: options.baseUrl,
    specUrl: loaded.specUrl,
    external,
    responseSchemas: options.responseSchemas,
  });
  const securitySchemes = securitySchemesOf(loaded.document, new RefResolver(loaded.document, external));
  const parsed: ParsedSpec = { info, operations, securitySchemes };
  DOCUMENTS.set(parsed, loaded.document);
  return parsed;
}

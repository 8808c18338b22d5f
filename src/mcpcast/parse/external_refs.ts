/**
 * Opt-in external `$ref`s: before operations are extracted, every reference to another document
 * (`other.yaml#/components/schemas/X`, `https://host/x.json#/X`) is found, and each document it names
 * is loaded once, within the limits and with the scrubbing of the main spec, then searched the same
 * way (its references relative to itself). Relative references resolve against the spec's location:
 * the file for a path source, the URL for a URL source; inline and object specs can only use absolute
 * URLs. Inside a loaded document every reference is rewritten to its absolute form, so a resolver can
 * follow it without knowing where it came from.
 *
 * A reference that may not be followed (host not allowed, file outside the spec's directory, document
 * that cannot be loaded, more than {@link MAX_EXTERNAL_DOCUMENTS}, or more bytes than the external
 * documents' shared budget) is recorded with its reason; the operations that use it become unsupported.
 *
 * Each document has the spec's own limits (`MCPCAST_MAX_SPEC_BYTES`, `MCPCAST_MAX_SPEC_NODES`, the
 * download time); together, the external documents may also hold at most `MCPCAST_MAX_SPEC_BYTES` bytes,
 * so one load reads at most twice that, the spec included.
 *
 * @module
 */

import { dirname, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { McpcastError } from "../errors.ts";
import { guardedFetch, insideDir, type RefPolicy, refusalOf } from "./external_ref_policy.ts";
import { documentKey, type ExternalDocuments } from "./ref_documents.ts";
import { DATA_KEYS, NAMED_MAPS } from "./refs.ts";
import { type LoadedSpec, loadSpec, readSpecLimits } from "../load/mod.ts";
import type { EnvLookup } from "../types.ts";
import { hostEnv } from "../../_util/host_env.ts";
import { isMapping, type SpecMapping } from "../_spec_values.ts";

/** Most external documents loaded for one spec. */
export const MAX_EXTERNAL_DOCUMENTS: number = 50;

/** Turns external references on. */
export interface ExternalRefsOptions {
  /**
   * Hosts (`host` or `host:port`, exact and case-insensitive) whose http(s) documents may be loaded.
   * Files beside a spec read from a file (under its directory) are allowed whenever this is set.
   */
  allowHosts: string[];
}

/** Options of {@link loadExternalDocuments}. */
export interface LoadExternalOptions extends ExternalRefsOptions {
  /** The fetch used for http(s) documents. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Environment lookup for the `MCPCAST_*` limits. @default the host environment */
  env?: EnvLookup;
  /** Cancels a download; its reason is thrown as is. */
  signal?: AbortSignal;
}

interface Pending {
  document: SpecMapping;
  /** Its key (absolute URL); `undefined` for an inline or object root. */
  url?: string;
  /** Whether its references are rewritten to absolute form (every document but the root). */
  rewrite: boolean;
}

/**
 * The external documents `loaded` references, directly or through each other. The root document is
 * read, never changed. Throws only when `signal` aborts (its reason); every other failure becomes a
 * refusal reason.
 */
export async function loadExternalDocuments(
  loaded: LoadedSpec,
  options: LoadExternalOptions,
): Promise<ExternalDocuments> {
  const rootUrl = loaded.path !== undefined ? pathToFileURL(loaded.path).href : loaded.specUrl;
  const rootDir = loaded.path === undefined ? undefined : dirname(loaded.path);
  const policy: RefPolicy = { allowHosts: options.allowHosts, rootDir };
  const documents = new Map<string, SpecMapping>();
  const refused = new Map<string, string>();
  const seen = new Set<string>();
  if (rootUrl !== undefined) {
    documents.set(rootUrl, loaded.document);
    seen.add(rootUrl);
  }
  const queue: Pending[] = [{ document: loaded.document, url: rootUrl, rewrite: false }];
  let count = 0;
  const budget = readSpecLimits(options.env ?? hostEnv).maxBytes;
  let spent = 0;
  const overBudget =
    `the external documents together are larger than ${budget} bytes (MCPCAST_MAX_SPEC_BYTES)`;
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const { ref, target } of externalRefs(next.document, next.url, next.rewrite)) {
      const key = documentKey(target);
      if (seen.has(key)) continue;
      seen.add(key);
      const refusal = refusalOf(ref, target, policy);
      if (refusal !== undefined) {
        refused.set(key, refusal);
      } else if (count >= MAX_EXTERNAL_DOCUMENTS) {
        refused.set(key, `more than ${MAX_EXTERNAL_DOCUMENTS} external documents`);
      } else if (spent > budget) {
        refused.set(key, overBudget);
      } else {
        count += 1;
        const outcome = await loadOne(target, policy, options);
        if (typeof outcome === "string") {
          refused.set(key, outcome);
          continue;
        }
        spent += outcome.bytes ?? 0;
        if (spent > budget) {
          refused.set(key, overBudget);
          continue;
        }
        documents.set(key, outcome.document);
        queue.push({ document: outcome.document, url: key, rewrite: true });
      }
    }
  }
  return { rootUrl, documents, refused };
}

/** The loaded document at `target`, or why it could not be loaded. */
async function loadOne(
  target: URL,
  policy: RefPolicy,
  options: LoadExternalOptions,
): Promise<LoadedSpec | string> {
  const isFile = target.protocol === "file:";
  const path = isFile ? fileURLToPath(target) : "";
  try {
    if (isFile && !await staysInside(policy.rootDir!, path)) return "it points outside the spec's directory";
    const source = isFile ? path : stripFragment(target);
    const fetchFn = guardedFetch(options.fetch ?? globalThis.fetch, policy.allowHosts);
    return await loadSpec(source, { fetch: fetchFn, env: options.env, signal: options.signal });
  } catch (error) {
    if (!(error instanceof McpcastError)) throw error;
    const message = isFile ? error.message.replaceAll(path, relative(policy.rootDir!, path)) : error.message;
    return `its document could not be loaded (${message})`;
  }
}

/** Whether the real path of `path` (symbolic links resolved) stays under the real `dir`; a missing file passes. */
async function staysInside(dir: string, path: string): Promise<boolean> {
  let real: string;
  try {
    real = await Deno.realPath(path);
  } catch {
    return true;
  }
  return insideDir(await Deno.realPath(dir), real);
}

function stripFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
}

/**
 * The references of `document` to other documents, as written and as absolute URLs, in document
 * order. With `rewrite`, every reference in `document` (local ones included) is replaced by its
 * absolute form relative to `url`. Walks like the resolver: data keys are skipped, named maps walked
 * value by value.
 */
function externalRefs(
  document: SpecMapping,
  url: string | undefined,
  rewrite: boolean,
): { ref: string; target: URL }[] {
  const found: { ref: string; target: URL }[] = [];
  const visit = (node: SpecMapping, key: string): void => {
    const ref = node[key] as string;
    if (url === undefined && ref.startsWith("#")) return;
    const target = URL.parse(ref, url);
    if (target === null) return;
    if (rewrite) node[key] = target.href;
    if (!ref.startsWith("#")) found.push({ ref, target });
  };
  walk(document, visit);
  return found;
}

function walk(node: unknown, visit: (node: SpecMapping, key: string) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
    return;
  }
  if (!isMapping(node)) return;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (key === "$ref" && typeof value === "string") {
      visit(node, key);
    } else if (NAMED_MAPS.has(key) && isMapping(value)) {
      for (const name of Object.keys(value)) walk(value[name], visit);
    } else if (!DATA_KEYS.has(key)) {
      walk(value, visit);
    }
  }
}

/**
 * How a generated project finds this library: the import-map entries of its `deno.json`. Generated
 * code imports `@agentry/agentry/mcp`, `@agentry/agentry/mcpcast` and `@agentry/agentry/mcpcast/runtime`.
 *
 * - A registry specifier (`jsr:@agentry/agentry@^0.1`, the default) or an http(s) URL maps the prefix
 *   `@agentry/agentry/` to it, so the package's `exports` resolve each subpath. A prefix mapping
 *   needs an address a subpath can be resolved against, so `jsr:` and `npm:` specifiers are written
 *   in their URL form, `jsr:/@agentry/agentry@^0.1/` (Deno refuses `jsr:@agentry/agentry@^0.1/`
 *   as a prefix target).
 * - A `file:` URL of a checkout maps each entry of the checkout's `deno.json` `exports` to its file,
 *   and copies the checkout's own import map (its npm dependencies), since plain files carry no
 *   package metadata.
 * - A record is used as the import map entries as they are.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";

/** The default: this library's JSR package. */
export const DEFAULT_FRAMEWORK_IMPORT: string = "jsr:@agentry/agentry@^0.1";

/** Where generated code finds the library: a registry specifier, a checkout's `file:` URL, or import-map entries. */
export type FrameworkImport = string | Readonly<Record<string, string>>;

const PACKAGE = "@agentry/agentry";
/** The entry points generated code imports; a checkout must export each. */
const REQUIRED_EXPORTS = [`${PACKAGE}/mcp`, `${PACKAGE}/mcpcast`, `${PACKAGE}/mcpcast/runtime`];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkoutImports(root: URL): Record<string, string> {
  let config: unknown;
  try {
    const text = Deno.readTextFileSync(new URL("deno.json", root));
    config = JSON.parse(text);
  } catch (cause) {
    throw new McpcastError(`frameworkImport ${root.href}: no readable deno.json there`, { cause });
  }
  if (!isRecord(config) || !isRecord(config.exports)) {
    throw new McpcastError(`frameworkImport ${root.href}: deno.json has no "exports" map`);
  }
  const out: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(config.exports)) {
    if (typeof target !== "string") continue;
    const name = subpath === "." ? PACKAGE : `${PACKAGE}/${subpath.replace(/^\.\//, "")}`;
    out[name] = new URL(target, root).href;
  }
  const missing = REQUIRED_EXPORTS.find((name) => !Object.hasOwn(out, name));
  if (missing !== undefined) {
    throw new McpcastError(`frameworkImport ${root.href}: deno.json exports no '${missing}'`);
  }
  if (isRecord(config.imports)) {
    for (const [name, target] of Object.entries(config.imports)) {
      if (typeof target === "string" && !Object.hasOwn(out, name)) out[name] = target;
    }
  }
  return out;
}

/**
 * The import-map entries for `frameworkImport`.
 *
 * @throws {McpcastError} for an empty specifier, one that is not `jsr:`, `npm:`, `http(s):` or `file:`,
 * a `file:` URL that is not a checkout, or a record
 * with a non-string target.
 *
 * @example
 * ```ts
 * import { frameworkImports } from "./framework_imports.ts";
 * frameworkImports("jsr:@agentry/agentry@^0.1");
 * // { "@agentry/agentry/": "jsr:/@agentry/agentry@^0.1/" }
 * ```
 */
export function frameworkImports(
  frameworkImport: FrameworkImport = DEFAULT_FRAMEWORK_IMPORT,
): Record<string, string> {
  if (typeof frameworkImport !== "string") {
    const out: Record<string, string> = {};
    for (const [name, target] of Object.entries(frameworkImport)) {
      if (typeof target !== "string" || target === "") {
        throw new McpcastError(`frameworkImport entry '${name}' must map to a non-empty specifier`);
      }
      out[name] = target;
    }
    return out;
  }
  const specifier = frameworkImport.trim();
  if (specifier === "") throw new McpcastError("frameworkImport must not be empty");
  if (!/^(jsr|npm|https?|file):/i.test(specifier)) {
    throw new McpcastError(
      "frameworkImport must be a jsr:, npm:, http(s): or file: specifier (a checkout as a file: URL)",
    );
  }
  if (specifier.startsWith("file:")) {
    return checkoutImports(new URL(specifier.endsWith("/") ? specifier : `${specifier}/`));
  }
  return { [`${PACKAGE}/`]: prefixAddress(specifier) };
}

/**
 * The address a prefix mapping points to: ends in "/", and a `jsr:` or `npm:` specifier takes the
 * URL form (`jsr:/@scope/name@range/`) that a subpath can be resolved against.
 */
function prefixAddress(specifier: string): string {
  const trimmed = specifier.replace(/\/+$/, "");
  const registry = /^(jsr|npm):\/*(.*)$/i.exec(trimmed);
  if (registry !== null) return `${registry[1].toLowerCase()}:/${registry[2]}/`;
  return `${trimmed}/`;
}

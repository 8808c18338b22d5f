/**
 * `--framework-import SPECIFIER|PATH` of `agentry mcpcast`: where the generated project finds this
 * library. A `jsr:`, `npm:` or http(s) specifier is kept as given (the import map writes its URL
 * form); anything else is the path of a checkout, resolved against the working directory to an
 * absolute `file:` URL, and must hold a `deno.json` exporting the entry points generated code imports.
 *
 * @module
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { frameworkImports, McpcastError } from "../../mcpcast/mod.ts";
import { UsageError } from "../exit.ts";

const USAGE = "--framework-import must be a jsr:, npm: or http(s) specifier of the package, or the path " +
  "of an agentry checkout";

/** `jsr:@scope/name[@range]`, `jsr:/@scope/name…`, `npm:[@scope/]name[@range]`, with an optional final "/". */
const REGISTRY =
  /^(jsr:\/?@[a-z0-9][a-z0-9_-]*\/[a-z0-9][a-z0-9_-]*|npm:\/?(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(@[^\s/@]+)?\/?$/i;

/** A scheme (`jsr:`, `https:`…), not a Windows drive letter (`C:\`). */
const SCHEME = /^[a-z][a-z0-9+.-]+:/i;

/**
 * The `frameworkImport` for the flag's value (as given for a specifier, a `file:` URL for a path),
 * or `undefined` when the flag is absent. Throws {@linkcode UsageError} naming what is wrong.
 *
 * @example
 * ```ts ignore
 * checkFrameworkImport("../agentry"); // "file:///home/me/agentry"
 * checkFrameworkImport("jsr:@agentry/agentry@^0.2"); // "jsr:@agentry/agentry@^0.2"
 * ```
 */
export function checkFrameworkImport(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const given = value.trim();
  if (given === "") throw new UsageError("--framework-import must not be empty");
  if (SCHEME.test(given) && !given.toLowerCase().startsWith("file:")) {
    const scheme = given.slice(0, given.indexOf(":")).toLowerCase();
    const ok = scheme === "http" || scheme === "https"
      ? URL.canParse(given)
      : (scheme === "jsr" || scheme === "npm") && REGISTRY.test(given);
    if (!ok) throw new UsageError(USAGE);
    return given;
  }
  const url = given.toLowerCase().startsWith("file:")
    ? URL.parse(given)?.href
    : pathToFileURL(resolve(given)).href;
  if (url === undefined) throw new UsageError(USAGE);
  try {
    frameworkImports(url);
  } catch (error) {
    if (!(error instanceof McpcastError)) throw error;
    const reason = error.message.replace(/^frameworkImport \S+: /, "");
    throw new UsageError(`--framework-import ${given} is not a checkout of @agentry/agentry: ${reason}`);
  }
  return url.replace(/\/+$/, "");
}

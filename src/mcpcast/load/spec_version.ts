/**
 * Which description format a loaded document declares, refused unless mcpcast reads it: OpenAPI 3.x
 * (`openapi: 3.0.x`, `3.1.x`; later 3.x minors are backward compatible) or Swagger 2.0 (`swagger: "2.0"`).
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import type { SpecMapping } from "../_spec_values.ts";

/** What mcpcast reads, for the messages. */
const READS = "mcpcast reads OpenAPI 3.0/3.1 and Swagger 2.0";

/** A version field's value as text (YAML reads `openapi: 3.0` as the number 3). */
function versionText(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return undefined;
}

/** A field value safe to show: short, one line. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  const line = text.replace(/\s+/g, " ");
  return line.length <= 40 ? `'${line}'` : `'${line.slice(0, 39)}…'`;
}

/** The format the document declares: `openapi` (3.x) or `swagger` (2.0). */
export type SpecFormat = "openapi" | "swagger";

/**
 * The format `document` declares. Throws {@link McpcastError} naming the version field found when it
 * is not one mcpcast reads: Swagger 1.x (`swaggerVersion`), another `openapi` or `swagger` version, an
 * AsyncAPI document, or a document with neither field.
 *
 * @example
 * ```ts ignore
 * checkSpecVersion({ openapi: "3.1.0", info: {}, paths: {} }); // "openapi"
 * checkSpecVersion({ swaggerVersion: "1.2", apis: [] }); // throws: Swagger 1.2 is not supported: …
 * ```
 */
export function checkSpecVersion(document: SpecMapping): SpecFormat {
  if ("openapi" in document) {
    const version = versionText(document.openapi);
    if (version !== undefined && /^3(\.\d+){0,2}$/.test(version)) return "openapi";
    throw new McpcastError(
      version === undefined
        ? `spec field 'openapi' is ${
          shown(document.openapi)
        }, not a version: ${READS} (openapi: 3.0.x or 3.1.x)`
        : `OpenAPI ${version} is not supported (field 'openapi'): ${READS}` +
          (/^[0-2](\.|$)/.test(version) ? '; for Swagger 2.0 the field is swagger: "2.0"' : ""),
    );
  }
  if ("swagger" in document) {
    const version = versionText(document.swagger);
    if (version !== undefined && /^2(\.0)?$/.test(version)) return "swagger";
    throw new McpcastError(
      version === undefined
        ? `spec field 'swagger' is ${shown(document.swagger)}, not a version: ${READS} (swagger: "2.0")`
        : `Swagger ${version} is not supported (field 'swagger'): ${READS}` +
          (/^1(\.|$)/.test(version) ? `; ${CONVERT}` : ""),
    );
  }
  if ("swaggerVersion" in document) {
    const version = versionText(document.swaggerVersion) ?? shown(document.swaggerVersion);
    throw new McpcastError(`Swagger ${version} is not supported: ${READS}; ${CONVERT}`);
  }
  if ("asyncapi" in document) {
    const version = versionText(document.asyncapi) ?? shown(document.asyncapi);
    throw new McpcastError(
      `AsyncAPI ${version} is not supported (field 'asyncapi'): ${READS}, descriptions of HTTP APIs`,
    );
  }
  throw new McpcastError(
    `spec names no version (neither an 'openapi' nor a 'swagger' field): ${READS}; add openapi: 3.0.3 ` +
      `or swagger: "2.0" at the top if the document is one of those`,
  );
}

/** How to get a document mcpcast reads out of an older one. */
const CONVERT =
  "convert it first (e.g. with api-spec-converter --from=swagger_1 --to=swagger_2) or use the API's newer " +
  "description";

/**
 * The parse stage: a loaded spec (Swagger 2 or OpenAPI 3.x) turned into operations, parameters,
 * request bodies, security schemes and success schemas, with local and external `$ref`s resolved.
 *
 * @module
 */

export { parseSpec, type ParseSpecOptions, specDocument } from "./parse_spec.ts";
export { type OperationSelection, selectOperations } from "./select_operations.ts";
export type { ExternalRefsOptions } from "./external_refs.ts";

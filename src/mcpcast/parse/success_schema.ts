/**
 * The schema of an operation's first success response (used for evaluation mocks).
 *
 * @module
 */

import type { RefResolver } from "./refs.ts";
import { preferredMedia } from "./request_body.ts";
import type { JsonSchema } from "../types.ts";
import { isMapping } from "../_spec_values.ts";

/**
 * The resolved schema of the first response whose code (codes sorted as strings) starts with "2" or
 * is "default": Swagger 2 `schema`, else the schema of the preferred media type. `undefined` when
 * there is none or it does not resolve.
 */
export function successSchema(responses: unknown, resolver: RefResolver): JsonSchema | undefined {
  if (!isMapping(responses)) return undefined;
  const code = Object.keys(responses).sort().find((key) => key.startsWith("2") || key === "default");
  if (code === undefined) return undefined;
  const response = resolver.follow(responses[code]).value;
  if (!isMapping(response)) return undefined;
  let schema = response.schema;
  if (schema === undefined && isMapping(response.content)) {
    const media = preferredMedia(response.content);
    const entry = media === undefined ? undefined : response.content[media];
    schema = isMapping(entry) ? entry.schema : undefined;
  }
  if (!isMapping(schema)) return undefined;
  const resolved = resolver.resolve(schema);
  return resolved.problems.length === 0 && isMapping(resolved.value) ? resolved.value : undefined;
}

/**
 * The load stage: a spec read from an object, a file, an http(s) URL or inline text, within the
 * `MCPCAST_*` limits, decoded, checked and scrubbed. The parse stage is its only caller.
 *
 * @module
 */

export { type LoadedSpec, loadSpec, type LoadSpecOptions } from "./source.ts";
export { readSpecLimits, type SpecLimits } from "./limits.ts";
export { checkSpecVersion, type SpecFormat } from "./spec_version.ts";

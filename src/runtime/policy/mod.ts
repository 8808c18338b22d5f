/**
 * Deploy policy: `${VAR}` references, program-starting configs and file system paths.
 *
 * @module
 */

export * from "./deploy_policy.ts";
export * from "./env_refs.ts";
export * from "./path_policy.ts";

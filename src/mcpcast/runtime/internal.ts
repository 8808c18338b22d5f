/**
 * What mcpcast's generator (emit) shares with the generated-server runtime, and users do not need: how the
 * server turns a call into a request and the variables it reads, so the generated tests' expected requests
 * and README come from the same code and names the server uses. Not a published entry point.
 *
 * @module
 */

export { RUNTIME_VARIABLES, type RuntimeVariable } from "./config.ts";
export { type CredentialVariable, credentialVariables } from "./credential.ts";
export { cleanSchema } from "./schema_clean.ts";
export { type SchemaProblem, schemaProblem } from "./json_check.ts";
export { visibleParams } from "./tool_options.ts";
export { callValues, selectRoute } from "./route_select.ts";
export { buildRequestParts, type RequestParts } from "./request_build.ts";
export type {
  BodyContract,
  ContractDocument,
  OperationContract,
  ParameterContract,
} from "./contract_check.ts";

/**
 * The runtime of generated mcpcast servers: the upstream client and the plan-driven tool server.
 * Generated projects stay thin: they read `mcpcast.plan.yaml` and call into this module.
 *
 * @module
 */

export {
  buildPlanServer,
  checkBind,
  type CheckBindOptions,
  PLAN_SERVER_VERSION,
  planInstructions,
  type PlanServerOptions,
  registerPlanTool,
} from "./plan_server.ts";
export { Upstream, type UpstreamCallContext, type UpstreamFetch, type UpstreamOptions } from "./upstream.ts";
export { planToolDescription, planToolInput, planToolOptions, visibleParams } from "./tool_options.ts";
export { cleanSchema } from "./schema_clean.ts";
export { readRuntimeConfig, RUNTIME_VARIABLES, type RuntimeConfig, type RuntimeVariable } from "./config.ts";
export { DOCUMENTATION_KEYS, readClientKeys } from "./client_keys.ts";
export {
  type Credential,
  type CredentialSource,
  redactCredential,
  upstreamCredential,
} from "./credential.ts";
export { buildRequestParts, type RequestParts } from "./request_build.ts";
export { callValues, routeAlternatives, selectRoute } from "./route_select.ts";
export { LAUNCH_USAGE, type LaunchOptions, parseLaunchArgs } from "./launch_args.ts";

/**
 * The runtime of generated mcpcast servers: the upstream client and the plan-driven tool server.
 * Generated projects stay thin: they read `mcpcast.plan.yaml` and call into this module.
 *
 * @module
 */

// This file is the complete public surface of `@agentry/agentry/mcpcast/runtime`; every name added
// here becomes public API. Generated projects import from it, so what they import must stay.

// The server a generated project builds from its plan (its `src/server.ts`).
export { buildPlanServer, checkBind, type CheckBindOptions, type PlanServerOptions } from "./plan_server.ts";

// The upstream client the generated tool modules call.
export { Upstream, type UpstreamCallContext, type UpstreamFetch, type UpstreamOptions } from "./upstream.ts";
export type { CredentialSource } from "./credential.ts";
export { planToolOptions, type PlanToolSettings } from "./tool_options.ts";

// The generated launcher's command line (its `main.ts`).
export { LAUNCH_USAGE, type LaunchOptions, parseLaunchArgs } from "./launch_args.ts";

// The generated tests' contract check: each request a tool sends, against the spec operation it came from.
export {
  type BodyContract,
  checkRequest,
  type CheckRequestOptions,
  type ContractDocument,
  type OperationContract,
  type ParameterContract,
  type SentRequest,
} from "./contract_check.ts";

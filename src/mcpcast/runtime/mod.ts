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
export { planToolOptions } from "./tool_options.ts";

// The generated launcher's command line (its `main.ts`).
export { LAUNCH_USAGE, type LaunchOptions, parseLaunchArgs } from "./launch_args.ts";

// How the server turns a call into a request, and the variables it reads: shared with mcpcast's
// generator (emit), which writes the generated tests' expected requests and README with the same
// code and names the server uses.
export { RUNTIME_VARIABLES, type RuntimeVariable } from "./config.ts";
export { cleanSchema } from "./schema_clean.ts";
export { visibleParams } from "./tool_options.ts";
export { callValues, selectRoute } from "./route_select.ts";
export { buildRequestParts, type RequestParts } from "./request_build.ts";

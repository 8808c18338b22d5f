/**
 * The generated server, driven by plan data: a tool server named after the API, with auth per mode,
 * the approval gate in front of gated tools, and one tool per plan tool calling the upstream API.
 *
 * | Auth mode | Callers | Upstream credential | Binds |
 * |---|---|---|---|
 * | `passthrough` | anyone who reaches it (put it behind a gateway) | the caller's Authorization header | any |
 * | `env-token` | anyone who reaches it | `MCPCAST_UPSTREAM_TOKEN` | loopback, unless public |
 * | `api-key` | holders of a key in `MCPCAST_CLIENT_KEYS` (`x-api-key`), each in a tenant | the tenant's, from `MCPCAST_UPSTREAM_TOKENS` | any |
 * | `none` | anyone who reaches it | none | loopback, unless public |
 *
 * Gated tools wait for a human: the calling client's user through MCP elicitation (the default), or,
 * under api-key auth, a queue that other callers holding the `approver` role decide through
 * `approvals_list` and `approvals_decide`, each reviewer seeing only their own tenant's requests.
 * In elicitation mode a client that cannot be asked gets `APPROVAL_REQUIRED`, and the operator a
 * one-time code on stderr that approves that exact call once (`approval_code`); in every mode
 * `MCPCAST_APPROVE=tool,…` approves tools for good (see `operator_approval.ts`).
 *
 * @module
 */

import {
  ApiKeyAuth,
  approvalGate,
  type Approver,
  type ApproverFunction,
  authMiddleware,
  createToolServer,
  elicitationApprover,
  PendingApprover,
  type ToolServer,
} from "../../mcp/mod.ts";
import { hostEnv } from "../../_util/host_env.ts";
import { isLoopbackHost } from "../../_util/net.ts";
import { McpcastError } from "../errors.ts";
import { effectiveApproval, type McpcastPlan, META_TOOL_NAMES, type ToolPlan } from "../plan/mod.ts";
import type { EnvLookup } from "../types.ts";
import { readClientKeys } from "./client_keys.ts";
import { readRuntimeConfig, type RuntimeConfig } from "./config.ts";
import { registerMetaTools } from "./meta_tools.ts";
import { OperatorApprover, readStandingApprovals } from "./operator_approval.ts";
import { planToolOptions, type PlanToolSettings } from "./tool_options.ts";
import { Upstream, type UpstreamFetch } from "./upstream.ts";

/** Options for {@linkcode buildPlanServer}. */
export interface PlanServerOptions {
  /** HTTP client for upstream calls (tests pass a fake). @default globalThis.fetch */
  fetch?: UpstreamFetch;
  /** Environment lookup for `MCPCAST_*` variables and credentials. @default the process environment */
  env?: EnvLookup;
  /** Who approves gated calls, instead of the plan's approval mode (tests pass `() => true`). */
  approver?: Approver | ApproverFunction;
  /** Where one-time approval codes are written for the operator. @default a line on stderr */
  operatorLog?: (line: string) => void;
  /**
   * Registers the tools (a generated project passes its `src/tools/` modules).
   * @default every plan tool, with {@linkcode registerPlanTool}
   */
  tools?: (server: ToolServer, upstream: Upstream) => void;
}

/** Version the generated servers report. */
export const PLAN_SERVER_VERSION: string = "0.1.0";

/** Most gated tool names the instructions list before "and N more". */
const INSTRUCTIONS_GATED_MAX = 20;

/** The hosts `plan` calls, the API's first. */
function planHosts(plan: McpcastPlan, baseUrl: string | undefined): string[] {
  if (baseUrl !== undefined) return [baseUrl];
  const hosts = new Set([plan.api.base_url]);
  for (const tool of plan.tools) {
    for (const route of tool.routes) if (route.base_url) hosts.add(route.base_url);
  }
  return [...hosts];
}

/**
 * The server's instructions: what it is, where its tools call, and which tools wait for a human.
 *
 * @example
 * ```ts ignore
 * planInstructions(plan); // "Tools for the petstore API. Every tool calls the upstream API at https://…"
 * ```
 */
export function planInstructions(plan: McpcastPlan, config: Pick<RuntimeConfig, "baseUrl"> = {}): string {
  const { api } = plan;
  const parts = [api.description.trim() || `Tools for the ${api.name} API.`];
  const hosts = planHosts(plan, config.baseUrl);
  parts.push(
    hosts.length === 1
      ? `Every tool calls the upstream API at ${hosts[0]}.`
      : `The tools call the upstream API at ${hosts[0]} (some at ${hosts.slice(1).join(", ")}).`,
  );
  const gated = plan.tools.filter((tool) => tool.requires_approval).map((tool) => tool.name);
  if (gated.length > 0) {
    const shown = gated.slice(0, INSTRUCTIONS_GATED_MAX).join(", ") +
      (gated.length > INSTRUCTIONS_GATED_MAX ? ` and ${gated.length - INSTRUCTIONS_GATED_MAX} more` : "");
    parts.push(
      `Calls to ${shown} wait for a human's approval before they run: confirm the user's intent first.`,
    );
  }
  if (api.tool_mode === "meta") {
    const [search, describe, invoke] = META_TOOL_NAMES;
    parts.push(
      `The API's ${plan.tools.length} tools are not listed: find one with ${search}, read its input ` +
        `schema with ${describe}, then call it with ${invoke}.`,
    );
  }
  return parts.join(" ");
}

/**
 * Registers `tool` on `server`: options from the plan (`settings` as for {@linkcode planToolOptions}),
 * the handler calls the upstream.
 */
export function registerPlanTool(
  server: ToolServer,
  tool: ToolPlan,
  upstream: Upstream,
  settings: PlanToolSettings = {},
): ToolServer {
  return server.tool(
    tool.name,
    planToolOptions(tool, settings),
    (args, ctx) => upstream.call(tool, args, ctx),
  );
}

/** How gated calls are approved: the gate's approver, and whether one-time codes are issued. */
interface ApprovalSetup {
  approver: OperatorApprover;
  queue?: PendingApprover;
}

function approvalSetup(
  plan: McpcastPlan,
  config: RuntimeConfig,
  options: PlanServerOptions & { env: EnvLookup },
): ApprovalSetup | undefined {
  const gated = plan.tools.filter((tool) => tool.requires_approval).map((tool) => tool.name);
  const standing = readStandingApprovals(options.env, gated);
  const operator = { standing, codeSeconds: config.approvalTimeoutSeconds, log: options.operatorLog };
  if (options.approver !== undefined) {
    return { approver: new OperatorApprover(toApprover(options.approver), operator) };
  }
  if (gated.length === 0) return undefined;
  if (effectiveApproval(plan.api) === "elicitation") {
    return { approver: new OperatorApprover(elicitationApprover(), { ...operator, codes: true }) };
  }
  let queue: PendingApprover;
  try {
    queue = new PendingApprover({
      approverRole: "approver",
      maxPending: config.maxPending,
      maxPendingPerTenant: config.maxPendingPerTenant,
      maxPendingPerClient: config.maxPendingPerClient,
    });
  } catch {
    throw new McpcastError(
      "pending-approval caps must nest: MCPCAST_MAX_PENDING_PER_CLIENT ≤ MCPCAST_MAX_PENDING_PER_TENANT ≤ " +
        "MCPCAST_MAX_PENDING",
    );
  }
  return { approver: new OperatorApprover(queue, operator), queue };
}

function toApprover(approver: Approver | ApproverFunction): Approver {
  if (typeof approver !== "function") return approver;
  return {
    decide: async (request, ctx) => {
      const value = await approver(request, ctx);
      return typeof value === "boolean" ? { approved: value } : value;
    },
  };
}

/**
 * The server `plan` describes, ready to serve: named after the API, with its instructions, auth per
 * mode (api-key: keys from `MCPCAST_CLIENT_KEYS`, every tool needs a caller with a tenant), the
 * approval gate (elicitation, or the tenant-scoped pending queue, unless `approver` overrides),
 * then the tools. With `api.tool_mode: meta` the server lists `search_tools`, `describe_tool` and
 * `invoke_tool` instead (and the approval queue's tools): the plan tools live on an unlisted server
 * with the same auth and approval gate, reached only through `invoke_tool` (see `meta_tools.ts`).
 *
 * @throws {McpcastError} for an invalid `MCPCAST_*` variable or missing client keys (named, never
 * echoed).
 *
 * @example
 * ```ts ignore
 * import { buildPlanServer, loadPlan } from "@agentry/agentry/mcpcast";
 * import { run } from "@agentry/agentry/mcp";
 * const server = buildPlanServer(loadPlan(await Deno.readTextFile("mcpcast.plan.yaml")));
 * await run(server, { transport: "stdio" });
 * ```
 */
export function buildPlanServer(plan: McpcastPlan, options: PlanServerOptions = {}): ToolServer {
  const env = options.env ?? hostEnv;
  const config = readRuntimeConfig(env);
  const apiKey = plan.api.auth === "api-key";
  const server = createToolServer({
    name: plan.api.name,
    version: PLAN_SERVER_VERSION,
    instructions: planInstructions(plan, config),
    requireTenant: apiKey,
  });
  const meta = plan.api.tool_mode === "meta";
  // Meta mode: the plan tools on an unlisted server, with the same auth and gate.
  const toolServer = meta
    ? createToolServer({ name: plan.api.name, version: PLAN_SERVER_VERSION, requireTenant: apiKey })
    : server;
  if (apiKey) {
    const auth = authMiddleware(new ApiKeyAuth({ keys: readClientKeys(env) }));
    server.use(auth);
    if (meta) toolServer.use(auth);
  }
  const approval = approvalSetup(plan, config, { ...options, env });
  if (approval !== undefined) {
    toolServer.use(approvalGate(approval.approver, { timeout: config.approvalTimeoutSeconds }));
    approval.queue?.register(server);
  }
  const approvalCode = approval?.approver.issuesCodes ?? false;
  const upstream = new Upstream(plan.api, {
    fetch: options.fetch,
    env,
    tools: plan.tools,
    timeoutSeconds: config.timeoutSeconds,
    maxResponseBytes: config.maxResponseBytes,
    errorExcerptChars: config.errorExcerptChars,
    allowInsecureHttp: config.allowInsecureHttp,
    baseUrl: config.baseUrl,
  });
  if (options.tools) options.tools(toolServer, upstream);
  else for (const tool of plan.tools) registerPlanTool(toolServer, tool, upstream, { approvalCode });
  if (meta) {
    toolServer.assertReady();
    registerMetaTools(server, plan, toolServer, { approvalCode });
    server.onStartup(() => toolServer.startup()).onShutdown(() => toolServer.shutdown());
  }
  return server;
}

/** Options for {@linkcode checkBind}. */
export interface CheckBindOptions {
  /** Accept a non-loopback address for env-token and none (`--public`, `MCPCAST_PUBLIC=1`). @default false */
  public?: boolean;
}

/**
 * Refuses to serve an `env-token` or `none` server on an address that is not loopback, unless
 * `public`: such a server authenticates nobody, and an env-token server lends its one upstream
 * credential to whoever reaches it. Call it before binding (the generated launcher does).
 *
 * @throws {McpcastError} explaining the refusal and the way out.
 */
export function checkBind(plan: McpcastPlan, host: string, options: CheckBindOptions = {}): void {
  const { auth } = plan.api;
  if ((auth !== "env-token" && auth !== "none") || isLoopbackHost(host) || options.public) return;
  const why = auth === "env-token"
    ? "an env-token server authenticates nobody and calls the upstream API with its one credential " +
      "(MCPCAST_UPSTREAM_TOKEN) for whoever reaches it"
    : "a server with auth 'none' authenticates nobody";
  throw new McpcastError(
    `refusing to listen on ${host}: ${why}. Bind 127.0.0.1, or pass --public (MCPCAST_PUBLIC=1) only ` +
      "behind a gateway that authenticates callers",
  );
}

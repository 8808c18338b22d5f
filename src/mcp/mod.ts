/**
 * A framework for MCP tool servers on top of the official SDK: tools, resources, templates and
 * prompts with zod or JSON Schema inputs; a middleware chain with auth (JWT, JWKS, API keys), guards,
 * rate limits, timeouts, concurrency caps, a circuit breaker, caching, structured logs, webhooks, a
 * tamper-evident audit chain and human approval; served over stdio, streamable HTTP or SSE.
 *
 * Failed calls answer with `isError: true` and a JSON envelope
 * `{"error":{"code","message","retryable","suggestion"?,"details"?}}`; unexpected exceptions become a
 * generic `INTERNAL_ERROR` and their text stays in the server log.
 *
 * @example
 * ```ts
 * // example: serves until stopped
 * import { z } from "zod";
 * import { ApiKeyAuth, authMiddleware, createToolServer, rateLimitMiddleware, run } from "@agentry/agentry/mcp";
 *
 * const server = createToolServer({ name: "weather" })
 *   .use(authMiddleware(new ApiKeyAuth({ keys: { "dev-key": "alice" } })), rateLimitMiddleware({ ratePerMinute: 120 }));
 * server.tool("forecast", {
 *   description: "Tomorrow's forecast for a city",
 *   input: z.object({ city: z.string() }),
 *   auth: true,
 *   readOnlyHint: true,
 * }, ({ city }) => `Sunny in ${city}`);
 * await run(server, { transport: "http", port: 8080 });
 * ```
 *
 * @module
 */

// The server and routers: what every user builds.
export { createToolServer, type Hook, ToolServer, type ToolServerOptions } from "./tool_server.ts";
export { createRouter, type RouterOptions, ToolRouter } from "./router.ts";
export type { Scope } from "./registration.ts";

// Item options, handlers, and the resolved definitions handlers and middleware see on the context.
export type {
  AccessOptions,
  BaseDefinition,
  Completer,
  ItemDefinition,
  PromptDefinition,
  PromptHandler,
  PromptOptions,
  ResourceDefinition,
  ResourceHandler,
  ResourceOptions,
  ResourceReadResult,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
  ResourceTemplateOptions,
  TaskSupport,
  ToolArgs,
  ToolDefinition,
  ToolHandler,
  ToolInput,
  ToolOptions,
} from "./definitions.ts";
export type { CompiledInput, InputCheck, JsonSchemaObject } from "./input_schema.ts";

// The contracts users implement (middleware, guards, auth providers) and the contexts they receive.
export type {
  AuthProvider,
  CallSession,
  ClientMethod,
  ClientRequestOptions,
  Guard,
  Identity,
  Middleware,
  Next,
} from "./types.ts";
export { RequestContext, type RequestContextInit, type RequestType } from "./request_context.ts";
export { ClientContext, type ClientContextInit } from "./client_context.ts";
export { type MiddlewareRole, withRole } from "./chain.ts";
export { callToolAs, type DelegatedCall } from "./delegate.ts";
export { InputRequiredSignal, isInputRequired, type PendingInput } from "./input_required.ts";
export {
  type DetailedTaskView,
  startTask,
  type TaskError,
  type TaskListener,
  TASKS_EXTENSION,
  type TaskStatus,
  type TaskStoreOptions,
  type TaskView,
  watchTasks,
} from "./tasks/mod.ts";

// Errors and results handlers return or throw; the failure classification a custom breaker may reuse.
export {
  CALLER_SIDE_CODES,
  countsAsFailure,
  TOOL_ERROR_CODES,
  ToolError,
  type ToolErrorCode,
  type ToolErrorOptions,
  type ToolErrorPayload,
} from "./errors.ts";
export { audioContent, imageContent, ToolResponse } from "./results.ts";

// Settings and logging a server is configured with.
export { loadServerSettings, type ServerSettings, SETTINGS_ENV } from "./settings.ts";
export { Logger, type LogLevel } from "../log.ts";

// Testing a server in-process.
export {
  createTestClient,
  type ModernTestClient,
  type TestCallOptions,
  type TestClient,
  type TestClientCalls,
  type TestClientOptions,
  type TestRevision,
} from "./testing.ts";
export type { ModernClient } from "./_modern_test_client.ts";

// Guards users attach to items; runGuards for middleware that answers before the handler runs.
export {
  HasAllRoles,
  HasAllScopes,
  HasRole,
  HasScope,
  HasTenant,
  RequireAuth,
  RequireClientId,
  RequireTenant,
  runGuards,
} from "./guards.ts";

// Authentication providers and the middleware that runs them.
export {
  AsymmetricJwtAuth,
  type AsymmetricJwtAuthOptions,
  type CreateTokenOptions,
  JwtAuth,
  type JwtAuthOptions,
  type JwtCommonOptions,
} from "./auth/jwt_auth.ts";
export {
  type JwksAlgorithm,
  JwksAuth,
  type JwksAuthOptions,
  type JwksDiscoveryOptions,
} from "./auth/jwks_auth.ts";
export { ApiKeyAuth, type ApiKeyAuthOptions, type ApiKeyClient } from "./auth/api_key_auth.ts";
export {
  type AuthMiddleware,
  authMiddleware,
  type AuthMiddlewareOptions,
  type IdentifyRequest,
} from "./auth/auth_middleware.ts";

// Middleware users install with server.use(...), with their options and pluggable backends.
export {
  type RateLimiter,
  rateLimitMiddleware,
  type RateLimitOptions,
  type TakeResult,
  TokenBucketLimiter,
  type TokenBucketOptions,
} from "./middleware/rate_limit.ts";
export { timeoutMiddleware, type TimeoutOptions, withTimeout } from "./middleware/timeout.ts";
export {
  type ConcurrencyLimiter,
  concurrencyLimiter,
  type ConcurrencyOptions,
  type ConcurrencyStats,
} from "./middleware/concurrency.ts";
export {
  type CircuitBreaker,
  circuitBreaker,
  type CircuitBreakerOptions,
  type CircuitState,
} from "./middleware/circuit_breaker.ts";
export {
  type CacheBackend,
  type CacheMiddleware,
  cacheMiddleware,
  type CacheOptions,
  type CacheScope,
  InMemoryCache,
  type InMemoryCacheOptions,
} from "./middleware/cache.ts";
export { structuredLogging, type StructuredLoggingOptions } from "./middleware/structured_logging.ts";
export {
  MAX_WEBHOOKS_IN_FLIGHT,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  type WebhookMiddleware,
  webhookMiddleware,
  type WebhookOptions,
  type WebhookPayload,
} from "./middleware/webhook.ts";

// The tamper-evident audit chain: the middleware that writes it and what verifies it (also `agentry audit verify`).
export {
  AUDIT_SECRET_VARIABLE,
  type AuditEntry,
  type AuditIdentity,
  type AuditMiddleware,
  auditMiddleware,
  type AuditMiddlewareOptions,
} from "./audit/audit_middleware.ts";
export {
  AUDIT_GENESIS_HASH,
  type AuditProblem,
  type AuditProblemKind,
  type AuditReport,
  type AuditWarningKind,
  verifyAuditLog,
  type VerifyAuditOptions,
} from "./audit/audit_verify.ts";
export { canonicalJson, type JsonValue } from "./audit/canonical_json.ts";

// Human approval: the gate and the approvers users choose or implement.
export type {
  ApprovalDecision,
  ApprovalMetadata,
  ApprovalRequest,
  Approver,
  ApproverFunction,
  WithdrawReason,
} from "./approval/approver.ts";
export { approvalGate, type ApprovalGateOptions } from "./approval/approval_gate.ts";
export type { ApprovalRecord } from "./approval/approval_record.ts";
export {
  CLIENT_CANNOT_ELICIT,
  CLIENT_REVIEWER,
  ELICITATION_REVIEWER,
  elicitationApprover,
  type ElicitationApproverOptions,
  isClientCannotElicit,
} from "./approval/elicitation_approver.ts";
export {
  type PendingApprovalView,
  PendingApprover,
  type PendingApproverOptions,
  type ResolveResult,
  type Reviewer,
} from "./approval/pending_approver.ts";

// Serving: stdio, streamable HTTP and SSE, health checks and the OAuth token endpoint.
export type { CorsOptions } from "./transports/cors_policy.ts";
export {
  type FetchHandlerOptions,
  type McpFetchHandler,
  type ServeInfo,
  toFetchHandler,
} from "./transports/to_fetch_handler.ts";
export {
  type AddCheckOptions,
  type CheckStatus,
  HealthCheck,
  type HealthCheckFn,
  type Liveness,
  type Readiness,
  type ReadinessOptions,
} from "./transports/health_check.ts";
export {
  run,
  type RunOptions,
  type ServeHandle,
  serveStdio,
  type StdioHandle,
  type StdioOptions,
} from "./transports/run.ts";
export {
  type PostMessageOptions,
  SseServerTransport,
  type SseServerTransportOptions,
} from "./transports/sse_server_transport.ts";
export {
  type TokenClient,
  type TokenEndpoint,
  tokenEndpoint,
  type TokenEndpointOptions,
  type TokenSigner,
} from "./transports/token_endpoint.ts";

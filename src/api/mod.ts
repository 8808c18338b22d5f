/**
 * The control API area: the Hono app, the server, the error envelope and the typed client.
 *
 * @module
 */

export { createControlApi, OPENAPI_PATH } from "./control_api.ts";
export type { ApiBindings, ControlApi } from "./context.ts";
export {
  apiEnvLookup,
  type ControlApiOptions,
  DEFAULT_HOST,
  DEFAULT_PORT,
  resolveControlApiOptions,
  type ResolvedControlApiOptions,
} from "./options.ts";
export { ControlServer } from "./server.ts";
export {
  ApiError,
  type ApiErrorOptions,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  type ErrorDetail,
  FIXED_MESSAGES,
} from "./errors.ts";
export { MAX_BODY_BYTES } from "./body.ts";
export { HEALTH_PATH } from "./guard.ts";
export {
  type DeployAnswer,
  type JournalAnswer,
  type JournalEntryAnswer,
  RuntimeApiError,
  RuntimeClient,
  type RuntimeClientOptions,
  type TriggerAddedAnswer,
  type TriggerListingAnswer,
  type TriggerRemovedAnswer,
} from "./client.ts";

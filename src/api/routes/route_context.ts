/**
 * What every route module receives.
 *
 * @module
 */

import type { Logger } from "../../log.ts";
import type {
  AgentProcess,
  AgentRuntime,
  DeployPolicy,
  EnvLookup,
  PolicyViolation,
} from "../../runtime/mod.ts";
import type { ControlApiApp } from "../context.ts";
import type { ResolvedControlApiOptions } from "../options.ts";
import type { DefineRoute } from "../route_definer.ts";
import { ApiError } from "../errors.ts";
import { processNotFound } from "../failures.ts";
import { NAME_PATTERN } from "../schemas.ts";

/** Shared route dependencies. */
export interface RouteContext {
  /** The app routes are added to. */
  app: ControlApiApp;
  /** Adds a route (routing, the OpenAPI document and 405 answers). */
  route: DefineRoute;
  /** The managed runtime. */
  runtime: AgentRuntime;
  /** Resolved settings. */
  options: ResolvedControlApiOptions;
  /** The API logger (`agentry.api`). */
  logger: Logger;
  /** Deploy checks for API deploys. */
  policy: DeployPolicy;
  /** Environment lookup for API-deployed processes: only allowed variables resolve. */
  apiEnv: EnvLookup;
}

/** The process named in the path, or 404 PROCESS_NOT_FOUND. */
export function findProcess(runtime: AgentRuntime, name: string): AgentProcess {
  const process = NAME_PATTERN.test(name) ? runtime.get(name) : undefined;
  if (!process) throw processNotFound(name);
  return process;
}

/** Throws the policy refusal as an API error (logged as a warning), when there is one. */
export function refusePolicy(
  violation: PolicyViolation | undefined,
  options: { logger: Logger; process: string },
): void {
  if (!violation) return;
  options.logger.warning("request refused by the deploy policy", {
    process: options.process,
    code: violation.code,
    where: violation.where,
  });
  throw new ApiError(violation.code, violation.message, {
    details: violation.where.map((field) => ({
      field,
      expected: "not allowed by the runtime's deploy policy",
    })),
  });
}

/**
 * What every route module receives.
 *
 * @module
 */

import type { Logger } from "../../_util/log.ts";
import type { AgentProcess, AgentRuntime, DeployPolicy, EnvLookup } from "../../runtime/mod.ts";
import type { ControlApiApp } from "../context.ts";
import type { ResolvedControlApiOptions } from "../options.ts";
import type { RouteTable } from "../route_table.ts";
import { ApiError } from "../errors.ts";
import { NAME_PATTERN } from "../schemas.ts";

/** Shared route dependencies. */
export interface RouteContext {
  /** The app routes are added to. */
  app: ControlApiApp;
  /** Known routes (405 answers). */
  table: RouteTable;
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
  if (!process) throw new ApiError("PROCESS_NOT_FOUND", `No process is named ${JSON.stringify(name)}.`);
  return process;
}

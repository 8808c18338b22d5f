/**
 * Bringing stored API deployments back after a runtime restart.
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import { parseProcessConfig } from "./config/mod.ts";
import type { EnvLookup } from "./process_parts.ts";
import type { ProcessStore } from "./process_store.ts";
import type { AgentRuntime } from "./runtime.ts";

/** Re-deploys every stored record into `runtime` and restores the state its operator asked for. */
export async function restoreDeployments(
  runtime: AgentRuntime,
  options: { store: ProcessStore; env: EnvLookup | undefined },
): Promise<{ restored: string[]; skipped: string[] }> {
  const { store, env } = options;
  const restored: string[] = [];
  const skipped: string[] = [];
  const logger = runtime.logger;
  const { records, problems } = await store.list();
  for (const problem of problems) logger.warning("unreadable stored deployment skipped", { problem });
  for (const record of records) {
    const parsed = parseProcessConfig(record.config);
    if (!parsed.ok || runtime.get(record.name)) {
      const reason = parsed.ok ? "name already registered" : "config no longer valid";
      logger.warning("stored deployment skipped", { process: record.name, reason });
      skipped.push(record.name);
      continue;
    }
    try {
      const process = await runtime.deploy(record.name, parsed.config, {
        source: "api",
        env: env ?? nothingResolves, // API configs never resolve through the runtime's host lookup
        restoredRecord: record,
      });
      restored.push(record.name);
      if (record.desired_state === "stopped") continue;
      await process.start();
      if (record.desired_state === "suspended") await process.suspend("restored as suspended");
    } catch (error) {
      logger.error("stored deployment failed to come back", {
        process: record.name,
        error: describeError(error),
      });
    }
  }
  return { restored, skipped };
}

function nothingResolves(): undefined {
  return undefined;
}

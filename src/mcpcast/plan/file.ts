/**
 * Writing a plan to a file.
 *
 * @module
 */

import type { McpcastPlan } from "./types.ts";
import { streamPlan } from "./yaml.ts";

/**
 * Writes `plan` to `path` as `savePlan` text (the file created or replaced), chunk by chunk
 * as `streamPlan` produces it: a plan of a large API is megabytes that need never exist as one string.
 * Throws what `Deno.openSync` and writes throw.
 *
 * @example
 * ```ts ignore
 * import { mcpcast, writePlanFile } from "@agentry/agentry/mcpcast";
 * writePlanFile("mcpcast.plan.yaml", await mcpcast("openapi.yaml"));
 * ```
 */
export function writePlanFile(path: string, plan: McpcastPlan): void {
  using file = Deno.openSync(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  streamPlan(plan, (chunk) => {
    const bytes = encoder.encode(chunk);
    for (let done = 0; done < bytes.length;) done += file.writeSync(bytes.subarray(done));
  });
}

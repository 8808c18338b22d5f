/**
 * The checks on a trigger an open-mode agent adds: the same parse and path check as `POST /triggers`,
 * and no `${...}` reference at all (neither `${VAR}` nor `${secret:NAME}`).
 *
 * @module
 */

import { checkTriggerPaths, parseSection, type TriggerConfig } from "../../runtime/mod.ts";
import { OpenModeRefusal } from "./open_mode_refusal.ts";

/** The trigger parsed and checked like `POST /triggers` (paths inside `dataDir`), with no `${...}` reference. */
export async function checkAgentTrigger(raw: unknown, dataDir: string): Promise<TriggerConfig> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new OpenModeRefusal("`trigger` must be a trigger config object.");
  }
  if (JSON.stringify(raw).includes("${")) {
    throw new OpenModeRefusal("References (${...}) are not allowed in triggers you add.");
  }
  const parsed = parseSection("triggers", [raw], { prefix: "" });
  if (!parsed.ok) {
    const issues = parsed.issues.map((i) =>
      `${i.field.replace(/^\[0\]\.?/, "") || "(trigger)"}: ${i.expected}`
    );
    throw new OpenModeRefusal(`The trigger is not valid: ${issues.join("; ")}.`);
  }
  const config: TriggerConfig = parsed.config[0];
  const violation = await checkTriggerPaths(config, {
    allowCommandDeploys: false,
    allowEnvReferences: false,
    allowedEnvVars: new Set(),
    dataDir: dataDir,
    cwd: Deno.cwd(),
  });
  if (violation) throw new OpenModeRefusal(violation.message);
  return config;
}

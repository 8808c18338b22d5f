/**
 * Listing, adding and removing a process's triggers (the trigger routes of the control API).
 *
 * A trigger added or removed while the process is started (starting, running, awaiting, suspended)
 * changes the running triggers at once (`live: true`, `effective_from: "immediate"`); otherwise only the
 * config changes and applies at the next start (`next_start`). Config changes of API deployments are
 * stored, so they survive a runtime restart.
 *
 * @module
 */

import {
  type AgentProcess,
  type AgentRuntime,
  parseSection,
  RuntimeError,
  STARTED_STATES,
  type TriggerConfig,
  type TriggerConfigInput,
} from "../runtime/mod.ts";
import { maskTriggerConfig, parseLegacyTriggerId, stableTriggerIds, triggerDigest } from "./trigger_ids.ts";
import { TRIGGERS_PART, type TriggerSource, TriggersPart } from "./triggers_part.ts";

/** One entry of a trigger listing. */
export interface TriggerListing {
  /** Stable id (config triggers) or the id the agent gave (dynamic ones). */
  id: string;
  /** Trigger type. */
  type: string;
  /** `config` or `dynamic`. */
  source: TriggerSource;
  /** The config with secrets masked (absent for dynamic triggers without one). */
  config?: Record<string, unknown>;
  /** Whether it is running now. */
  live: boolean;
}

/** A change answer. */
export interface TriggerChange {
  /** Whether running triggers changed (or, for removals, whether the change is final). */
  live: boolean;
  /** `immediate` or `next_start`. */
  effective_from: "immediate" | "next_start";
}

function runningPart(process: AgentProcess): TriggersPart | undefined {
  const part = process.part(TRIGGERS_PART);
  return part instanceof TriggersPart ? part : undefined;
}

/** The process's triggers: configured ones (stable ids, in config order), then dynamic ones. */
export function listTriggers(process: AgentProcess): TriggerListing[] {
  const running = runningPart(process)?.running() ?? [];
  const live = new Set(running.map((r) => r.id));
  const configs = process.config.triggers;
  const listing: TriggerListing[] = stableTriggerIds(configs).map((id, index) => ({
    id,
    type: configs[index].type,
    source: "config",
    config: maskTriggerConfig(configs[index]),
    live: live.has(id),
  }));
  for (const entry of running.filter((r) => r.source === "dynamic")) {
    listing.push({
      id: entry.id,
      type: entry.type,
      source: "dynamic",
      ...(entry.config ? { config: maskTriggerConfig(entry.config) } : {}),
      live: true,
    });
  }
  return listing;
}

/**
 * Adds a trigger to the process's config, starting it now when the process is started. `config` is
 * taken as a deploy takes it (defaults filled here); `raw` is the JSON as received, stored for API
 * deployments (@default the config given). Rejects with a {@linkcode RuntimeError} INVALID_CONFIG
 * (`details.issues` under `triggers[<next index>]`), TRIGGER_EXISTS, or with the trigger's own error
 * when it cannot start (then nothing changed).
 */
export async function addTrigger(
  runtime: AgentRuntime,
  process: AgentProcess,
  input: { config: TriggerConfigInput | TriggerConfig; raw?: unknown },
): Promise<TriggerChange & { trigger_id: string }> {
  const configs = process.config.triggers;
  const config = parsedTrigger(process.name, input.config, configs.length);
  const raw = input.raw ?? input.config;
  const digest = triggerDigest(config);
  const twin = configs.findIndex((config) => triggerDigest(config) === digest);
  if (twin !== -1) {
    const existing = stableTriggerIds(configs)[twin];
    throw new RuntimeError("TRIGGER_EXISTS", `an identical trigger is already configured: ${existing}`, {
      details: { triggerId: existing },
    });
  }
  const triggerId = stableTriggerIds([...configs, config])[configs.length];
  const part = STARTED_STATES.has(process.state) ? runningPart(process) : undefined;
  if (part) await part.add(resolvedTrigger(process, config), { triggerId, source: "config" });
  try {
    await runtime.reconfigure(process.name, {
      config: { ...process.config, triggers: [...configs, config] },
      rawConfig: (stored) => ({ ...stored, triggers: [...asList(stored.triggers), raw] }),
    });
  } catch (error) {
    await part?.remove(triggerId);
    throw error;
  }
  return {
    trigger_id: triggerId,
    live: part !== undefined,
    effective_from: part ? "immediate" : "next_start",
  };
}

/** One trigger parsed as the `index`th of a config, or a RuntimeError INVALID_CONFIG. */
function parsedTrigger(process: string, input: unknown, index: number): TriggerConfig {
  const parsed = parseSection("triggers", [input]);
  if (parsed.ok) return parsed.config[0];
  const issues = parsed.issues.map((issue) => ({
    ...issue,
    field: issue.field.replace(/^triggers\[0\]/, `triggers[${index}]`),
  }));
  const list = issues.map((issue) => `${issue.field}: ${issue.expected}`).join("; ");
  throw new RuntimeError("INVALID_CONFIG", `process ${process}: invalid trigger: ${list}`, {
    details: { process, issues },
  });
}

/**
 * Removes a trigger by id: a configured one (also by the deprecated `static_<n>` position id, answered
 * with a `warning` naming the stable id) or a dynamic one. Rejects with a
 * {@linkcode RuntimeError} TRIGGER_NOT_FOUND.
 */
export async function removeTrigger(
  runtime: AgentRuntime,
  process: AgentProcess,
  options: { triggerId: string },
): Promise<TriggerChange & { trigger_removed: string; warning?: string }> {
  const { triggerId } = options;
  const configs = process.config.triggers;
  const ids = stableTriggerIds(configs);
  const legacy = parseLegacyTriggerId(triggerId);
  const stableId = legacy !== undefined ? ids[legacy] : triggerId;
  const warning = legacy !== undefined && stableId
    ? `position ids like ${triggerId} are deprecated; this trigger's stable id is ${stableId}`
    : undefined;
  const part = STARTED_STATES.has(process.state) ? runningPart(process) : undefined;
  const found = stableId === undefined ? -1 : ids.indexOf(stableId);
  if (found !== -1) {
    // Identical configs are interchangeable: remove the last of them so the others keep their ids.
    const digest = triggerDigest(configs[found]);
    const index = configs.findLastIndex((config) => triggerDigest(config) === digest);
    await runtime.reconfigure(process.name, {
      config: { ...process.config, triggers: configs.filter((_, i) => i !== index) },
      rawConfig: (raw) => ({ ...raw, triggers: asList(raw.triggers).filter((_, i) => i !== index) }),
    });
    await part?.remove(ids[index]);
    return {
      trigger_removed: stableId!,
      live: true,
      effective_from: part ? "immediate" : "next_start",
      warning,
    };
  }
  if (part && part.running().some((r) => r.id === triggerId && r.source === "dynamic")) {
    await part.remove(triggerId);
    return { trigger_removed: triggerId, live: true, effective_from: "immediate" };
  }
  throw new RuntimeError("TRIGGER_NOT_FOUND", `no trigger with id ${triggerId}`, { details: { triggerId } });
}

/** The trigger with references resolved, validated again (a variable may hold a value a field refuses). */
function resolvedTrigger(process: AgentProcess, config: TriggerConfig): TriggerConfig {
  const parsed = parseSection("triggers", [process.resolveReferences(config)], { prefix: "" });
  if (parsed.ok) return parsed.config[0];
  throw new Error(
    `after resolving references the trigger is not valid at: ${parsed.issues.map((i) => i.field).join(", ")}`,
  );
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

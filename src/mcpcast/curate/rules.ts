/**
 * The rules a proposal must keep, checked by code (the model is told, never trusted): the budget, tool
 * names and descriptions, each operation known, served once and not deprecated, no lowered risk,
 * parameter changes that exist and keep required ones callable, every merged operation reachable by
 * dispatch, example keys visible, and dropped operations known and dropped once. Each violation is
 * one sentence naming the tool, operation or parameter, so it can be fed back.
 *
 * @module
 */

import { profileAllows, toolNameProblem } from "../plan/internal.ts";
import { RISK_SEVERITY } from "../types.ts";
import type { CatalogueEntry, CurationContext } from "./context.ts";
import type { Proposal, ProposedTool } from "./proposal.ts";

/** `text` as a quoted name in a sentence, cut to 80 characters. */
export function named(text: string): string {
  return `'${text.length > 80 ? `${text.slice(0, 79)}…` : text}'`;
}

function quotedList(names: readonly string[]): string {
  return names.map(named).join(", ");
}

/** Whether the model gave `default` a value (null means none). */
export function hasDefault(adjustment: { default?: unknown } | undefined): boolean {
  return adjustment?.default !== undefined && adjustment.default !== null;
}

/** The catalogue entries of `tool`'s operations, in its order, each once, unknown ones left out. */
export function entriesOf(tool: ProposedTool, context: CurationContext): CatalogueEntry[] {
  const ids = [...new Set(tool.operations)];
  return ids.flatMap((id) => {
    const entry = context.catalogue.get(id);
    return entry === undefined ? [] : [entry];
  });
}

/** Parameter names of the tool's operations (the union, first seen first). */
export function paramUnion(entries: readonly CatalogueEntry[]): string[] {
  return [...new Set(entries.flatMap((entry) => Object.keys(entry.route.params)))];
}

function operationViolations(
  tool: ProposedTool,
  context: CurationContext,
  owners: Map<string, string>,
  out: string[],
): void {
  const seen = new Set<string>();
  for (const id of tool.operations) {
    if (seen.has(id)) {
      out.push(`tool ${named(tool.name)} lists operation ${named(id)} twice`);
      continue;
    }
    seen.add(id);
    const entry = context.catalogue.get(id);
    if (entry === undefined) {
      const unmappable = context.unmappable.find((drop) => drop.operation_id === id);
      out.push(
        unmappable === undefined
          ? `tool ${named(tool.name)} lists operation ${named(id)}, which is not in the catalogue`
          : `tool ${named(tool.name)} lists operation ${named(id)}, which mcpcast cannot serve ` +
            `(${unmappable.reason}); leave it out`,
      );
      continue;
    }
    const owner = owners.get(id);
    if (owner !== undefined && owner !== tool.name) {
      out.push(
        `operation ${named(id)} is in both tool ${named(owner)} and tool ${named(tool.name)}; ` +
          "an operation belongs to one tool",
      );
    } else owners.set(id, tool.name);
    if (entry.op.deprecated) {
      out.push(`tool ${named(tool.name)} keeps deprecated operation ${named(id)}; drop it`);
    }
  }
}

function riskViolation(tool: ProposedTool, entries: readonly CatalogueEntry[], out: string[]): void {
  const highest = entries.reduce<CatalogueEntry | undefined>(
    (top, entry) => top === undefined || RISK_SEVERITY[entry.risk] > RISK_SEVERITY[top.risk] ? entry : top,
    undefined,
  );
  if (highest !== undefined && RISK_SEVERITY[tool.risk] < RISK_SEVERITY[highest.risk]) {
    out.push(
      `tool ${named(tool.name)} has risk '${tool.risk}', below '${highest.risk}' of its operation ` +
        `${named(highest.op.operationId)}: a risk may be raised, never lowered`,
    );
  }
}

function paramViolations(tool: ProposedTool, entries: readonly CatalogueEntry[], out: string[]): void {
  const union = new Set(paramUnion(entries));
  const adjusted = tool.params ?? {};
  for (const [name, adjustment] of Object.entries(adjusted)) {
    if (!union.has(name)) {
      out.push(`tool ${named(tool.name)} adjusts parameter ${named(name)}, which none of its operations has`);
      continue;
    }
    if (adjustment.hidden !== true || hasDefault(adjustment)) continue;
    const needing = entries.find((entry) => entry.route.params[name]?.required === true);
    if (needing !== undefined) {
      out.push(
        `tool ${named(tool.name)} hides parameter ${named(name)}, which operation ` +
          `${named(needing.op.operationId)} requires, without a default; keep it visible or give a default`,
      );
    }
  }
  if (tool.example !== undefined && tool.example !== null) {
    const bad = Object.keys(tool.example).filter((key) => !union.has(key) || adjusted[key]?.hidden === true);
    if (bad.length > 0) {
      out.push(
        `tool ${named(tool.name)} has an example using unknown or hidden parameter(s) ${quotedList(bad)}`,
      );
    }
  }
}

/** Names of the parameters an operation requires that the caller gives (not hidden by the tool). */
function requiredVisible(entry: CatalogueEntry, tool: ProposedTool): Set<string> {
  return new Set(
    Object.entries(entry.route.params)
      .filter(([name, param]) => param.required && tool.params?.[name]?.hidden !== true)
      .map(([name]) => name),
  );
}

function dispatchViolations(tool: ProposedTool, entries: readonly CatalogueEntry[], out: string[]): void {
  const needs = entries.map((entry) => requiredVisible(entry, tool));
  needs.forEach((later, i) => {
    const j = needs.slice(0, i).findIndex((earlier) => [...earlier].every((name) => later.has(name)));
    if (j < 0) return;
    out.push(
      `tool ${named(tool.name)}: operation ${
        named(entries[i].op.operationId)
      } can never be called, because ` +
        `operation ${named(entries[j].op.operationId)} is listed before it and every call that supplies ` +
        "the required parameters of the later one also supplies those of the earlier one (the first " +
        "operation whose required parameters are all given wins); list the more specific operation " +
        "first, or do not merge them",
    );
  });
}

function droppedViolations(
  proposal: Proposal,
  context: CurationContext,
  owners: Map<string, string>,
): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const drop of proposal.dropped ?? []) {
    const id = drop.operation_id;
    const unmappable = context.unmappable.some((op) => op.operation_id === id);
    if (!context.catalogue.has(id) && !unmappable) {
      out.push(`dropped operation ${named(id)} is not in the catalogue`);
    }
    if (owners.has(id)) {
      out.push(`operation ${named(id)} is both in tool ${named(owners.get(id)!)} and dropped`);
    }
    if (seen.has(id)) out.push(`operation ${named(id)} is dropped twice`);
    if (drop.reason.trim() === "") out.push(`dropped operation ${named(id)} has no reason`);
    seen.add(id);
  }
  return out;
}

/**
 * Every rule `proposal` breaks, except naming tools the server will not have (see `phantom.ts`), in
 * tool order, then the dropped list.
 */
export function ruleViolations(proposal: Proposal, context: CurationContext): string[] {
  const out: string[] = [];
  if (proposal.tools.length > context.maxTools) {
    out.push(
      `the proposal has ${proposal.tools.length} tools, over the budget of ${context.maxTools}: merge ` +
        "tools that serve one goal or drop the least useful",
    );
  }
  const names = new Set<string>();
  const owners = new Map<string, string>();
  for (const tool of proposal.tools) {
    const problem = toolNameProblem(tool.name);
    if (problem !== undefined) out.push(`tool name ${named(tool.name)} ${problem}`);
    if (names.has(tool.name)) out.push(`tool name ${named(tool.name)} is used by more than one tool`);
    names.add(tool.name);
    if (tool.description.trim() === "") out.push(`tool ${named(tool.name)} has an empty description`);
    operationViolations(tool, context, owners, out);
    const entries = entriesOf(tool, context);
    riskViolation(tool, entries, out);
    paramViolations(tool, entries, out);
    dispatchViolations(tool, entries, out);
  }
  out.push(...droppedViolations(proposal, context, owners));
  out.push(...surfaceViolations(proposal, context));
  return out;
}

/**
 * A proposal whose tools the profile all removes, while the catalogue has operations it keeps, would
 * give an empty server: a violation (a catalogue with nothing the profile keeps can only give one).
 */
function surfaceViolations(proposal: Proposal, context: CurationContext): string[] {
  const { profile } = context;
  if (proposal.tools.some((tool) => profileAllows(profile, tool.risk))) return [];
  const usable = [...context.catalogue.values()].some((entry) =>
    !entry.op.deprecated && profileAllows(profile, entry.risk)
  );
  if (!usable) return [];
  return [
    `no proposed tool is of a risk profile '${profile}' generates, so the server would have no tools; ` +
    "propose at least one tool the profile keeps",
  ];
}

/**
 * "Phantom tools": a description naming a tool the generated server will not have. A snake_case
 * identifier (with an underscore) in a kept tool's description or parameter descriptions is a phantom
 * when it is a proposed tool the profile removes, or the derived tool name of a spec operation that is
 * not an exposed tool; parameter names are never taken for tools. Until the last attempt each phantom
 * is a violation saying why the tool is missing and which may be named; on the last attempt the
 * sentences naming one are removed instead.
 *
 * @module
 */

import { describeOperation, profileAllows } from "../plan/internal.ts";
import type { CurationContext } from "./context.ts";
import type { Proposal, ProposedTool } from "./proposal.ts";
import { entriesOf, named } from "./rules.ts";

const IDENTIFIER = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
const LISTED_NAMES = 20;

/** The proposed tools the profile keeps. */
export function exposedTools(proposal: Proposal, context: CurationContext): ProposedTool[] {
  return proposal.tools.filter((tool) => profileAllows(context.profile, tool.risk));
}

/** Why `identifier` names a tool the server will not have, or undefined when it does not. */
function whyMissing(
  identifier: string,
  proposal: Proposal,
  context: CurationContext,
  exposed: ReadonlySet<string>,
): string | undefined {
  if (exposed.has(identifier) || context.paramNames.has(identifier)) return undefined;
  const proposed = proposal.tools.find((tool) => tool.name === identifier);
  if (proposed !== undefined) {
    return `the proposed tool is ${proposed.risk}, which profile '${context.profile}' does not generate`;
  }
  const operation = context.derivedNames.get(identifier);
  if (operation === undefined) return undefined;
  const owner = proposal.tools.find((tool) => tool.operations.includes(operation));
  if (owner !== undefined && exposed.has(owner.name)) {
    return `it is the name of operation ${named(operation)}, which tool ${named(owner.name)} serves`;
  }
  if (context.unmappable.some((drop) => drop.operation_id === operation)) {
    return `it is the name of operation ${named(operation)}, which mcpcast cannot serve`;
  }
  return `it is the name of operation ${named(operation)}, which is not a tool`;
}

/** The texts of `tool` the agent reads: its description, then each adjusted parameter description. */
function textsOf(tool: ProposedTool): { where: string; text: string }[] {
  const out = [{ where: "description", text: tool.description }];
  for (const [name, adjustment] of Object.entries(tool.params ?? {})) {
    if (adjustment.description !== undefined) {
      out.push({ where: `description of parameter ${named(name)}`, text: adjustment.description });
    }
  }
  return out;
}

function phantomsIn(
  text: string,
  proposal: Proposal,
  context: CurationContext,
  exposed: ReadonlySet<string>,
): Map<string, string> {
  const found = new Map<string, string>();
  for (const [identifier] of text.matchAll(IDENTIFIER)) {
    const why = whyMissing(identifier, proposal, context, exposed);
    if (why !== undefined) found.set(identifier, why);
  }
  return found;
}

/** One violation per phantom tool named by a kept tool. */
export function phantomViolations(proposal: Proposal, context: CurationContext): string[] {
  const kept = exposedTools(proposal, context);
  const exposed = new Set(kept.map((tool) => tool.name));
  const listed = [...exposed].slice(0, LISTED_NAMES).join(", ") + (exposed.size > LISTED_NAMES ? ", …" : "");
  const out: string[] = [];
  for (const tool of kept) {
    for (const { where, text } of textsOf(tool)) {
      for (const [identifier, why] of phantomsIn(text, proposal, context, exposed)) {
        out.push(
          `tool ${named(tool.name)} ${where} names ${named(identifier)}, a tool the server will not have ` +
            `(${why}); name only tools it has: ${listed}`,
        );
      }
    }
  }
  return out;
}

function withoutPhantoms(
  text: string,
  phantoms: (text: string) => Map<string, string>,
  removed: string[],
): string {
  const sentences = text.trim().split(/(?<=[.!?])\s+/);
  const kept = sentences.filter((sentence) => {
    if (phantoms(sentence).size === 0) return true;
    removed.push(sentence);
    return false;
  });
  return kept.length === sentences.length ? text : kept.join(" ");
}

/**
 * `proposal` with every sentence naming a phantom tool removed from the kept tools' descriptions (an
 * emptied tool description becomes the spec's description of its first operation; an emptied
 * parameter description is left out, so the spec's is used), and the removed sentences.
 */
export function removePhantomSentences(
  proposal: Proposal,
  context: CurationContext,
): { proposal: Proposal; removed: string[] } {
  const exposed = new Set(exposedTools(proposal, context).map((tool) => tool.name));
  const phantoms = (text: string) => phantomsIn(text, proposal, context, exposed);
  const removed: string[] = [];
  const tools = proposal.tools.map((tool) => {
    if (!exposed.has(tool.name)) return tool;
    let description = withoutPhantoms(tool.description, phantoms, removed);
    if (description.trim() === "") {
      const first = entriesOf(tool, context)[0];
      description = first === undefined ? tool.description : describeOperation(first.op);
    }
    const params = Object.fromEntries(
      Object.entries(tool.params ?? {}).map(([name, adjustment]) => {
        if (adjustment.description === undefined) return [name, adjustment];
        const text = withoutPhantoms(adjustment.description, phantoms, removed);
        const { description: _, ...rest } = adjustment;
        return [name, text.trim() === "" ? rest : { ...adjustment, description: text }];
      }),
    );
    return { ...tool, description, ...(tool.params === undefined ? {} : { params }) };
  });
  return { proposal: { ...proposal, tools }, removed };
}

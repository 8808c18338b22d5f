/**
 * The prompts of curation: the system prompt (the contract the model works under), the user prompt
 * (the API, the budget, the profile and the catalogue, one JSON line per operation) and the feedback
 * of a retry.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import type { RiskClass, SafetyProfile } from "../types.ts";
import { profileAllows } from "../plan/internal.ts";
import type { CurationContext } from "./context.ts";

/** Longest user prompt sent (about 150k tokens); a larger catalogue is refused before any model call. */
export const MAX_PROMPT_CHARS = 600_000;

const MAX_OP_DESCRIPTION = 400;
const MAX_PARAM_DESCRIPTION = 200;
const RISKS: readonly RiskClass[] = ["read", "write", "destructive", "financial"];

/** The system prompt: what a good tool surface is, and the shape of the one reply. */
export function systemPrompt(maxTools: number): string {
  return `You design the tool surface an AI agent will use to work with an HTTP API. You get a catalogue of the
API's operations. Propose a small set of tools (never one tool per route) that lets an end user's agent do
what people actually want from this API. Follow these rules, most important first:

1. Budget: at most ${maxTools} tools. When there are more useful operations than that, keep the ones an end
   user's agent needs most.
2. Drop what an end user's agent should not call: health checks, webhook receivers, internal or admin
   routes, deprecated operations, bulk exports. Give each dropped operation a short, honest reason.
3. Merge routes that serve one goal into one tool (for example "get by id" and "list"), but never merge a
   read with an operation that changes data. A merged tool calls the first of its operations (in the
   order you list them) whose required parameters the caller supplied, so merged operations must differ
   in their required parameters: list the most specific first and one that requires nothing last. When
   unsure, do not merge.
4. Name each tool for its intent, in the API's own domain words, lower-case snake_case (search_orders,
   get_order).
5. Write each description for a model choosing tools: what it does, when to use it, when not to, and what
   comes back, in 2 to 4 sentences. Name another tool only if it is in your proposal and the profile
   keeps it; never name operations you dropped.
6. Parameters: keep required ones visible; hide rarely used optional ones, giving a default when one is
   needed; improve unclear parameter descriptions. Only adjust parameters the tool's operations have.
7. Give one realistic example call per tool, using visible parameters only.
8. Each tool has a risk class (read, write, destructive, financial). You may raise a tool's risk above the
   catalogue's, never lower it below the highest risk of its operations.

Reply with ONE JSON object and nothing else, of this shape:
{"tools": [{"name": "...", "description": "...", "risk": "read", "operations": ["operationId", ...],
  "params": {"param_name": {"description": "...", "hidden": false, "default": null}},
  "example": {"param_name": "value"}, "tags": ["..."]}],
 "dropped": [{"operation_id": "...", "reason": "..."}]}
Every catalogue operation appears exactly once: in one tool's "operations" or in "dropped". "params",
"example" and "tags" may be left out; a parameter entry lists only what you change.`;
}

function exposedClasses(profile: SafetyProfile): RiskClass[] {
  return RISKS.filter((risk) => profileAllows(profile, risk));
}

function clip(text: string | undefined, max: number): string {
  const clean = (text ?? "").trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1)}…`;
}

function schemaType(schema: Record<string, unknown>): string {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.filter((t) => t !== "null").join("|") || "any";
  return "any";
}

/** The catalogue: one JSON line per mappable operation, in spec order. */
function catalogueLines(context: CurationContext): string[] {
  return [...context.catalogue.values()].map(({ op, route, risk, params }) =>
    JSON.stringify({
      operation_id: op.operationId,
      method: op.method,
      path: op.path,
      summary: op.summary ?? "",
      description: clip(op.description, MAX_OP_DESCRIPTION),
      tags: op.tags,
      deprecated: op.deprecated,
      risk,
      params: [...params.values()].map((param) => ({
        name: param.name,
        in: param.location,
        required: route.params[param.name]?.required ?? param.required,
        type: schemaType(param.schema),
        description: clip(param.description, MAX_PARAM_DESCRIPTION),
      })),
    })
  );
}

/**
 * The user prompt for `context`.
 *
 * @throws {McpcastError} when it is longer than {@linkcode MAX_PROMPT_CHARS}.
 */
export function userPrompt(context: CurationContext): string {
  const { api, profile, maxTools, catalogue } = context;
  const kept = exposedClasses(profile);
  const prompt = [
    `API: ${api.name} — ${context.description}`,
    `Operations: ${catalogue.size}. Tool budget: at most ${maxTools} tools.`,
    `After your proposal, profile '${profile}' is applied: only tools of risk ${kept.join(", ")} are ` +
    "generated; the others are removed, so descriptions must not name them.",
    "Catalogue (one JSON object per line):",
    ...catalogueLines(context),
  ].join("\n");
  if (prompt.length > MAX_PROMPT_CHARS) {
    throw new McpcastError(
      `the curation prompt would be ${prompt.length} characters (${catalogue.size} operations), over the ` +
        `limit of ${MAX_PROMPT_CHARS}: narrow the spec first (curate one tag or path prefix at a time: ` +
        "--tag or --path, or selectOperations), or convert without a model (--no-curate)",
    );
  }
  return prompt;
}

/** The feedback after a reply with no JSON object in it. */
export function noJsonFeedback(): string {
  return "Your previous reply did not contain a JSON object. Reply with ONLY the JSON object of the " +
    "requested shape: no prose, no explanation.";
}

/** The feedback after a proposal that broke rules: the violations, then the proposal to edit. */
export function violationFeedback(violations: readonly string[], previous: unknown): string {
  return [
    "Your previous proposal broke these rules:",
    ...violations.map((violation) => `- ${violation}`),
    "Here is that proposal. Edit it to fix every problem above (keep what was fine) and reply with the " +
    "whole corrected JSON object only:",
    JSON.stringify(previous),
  ].join("\n");
}

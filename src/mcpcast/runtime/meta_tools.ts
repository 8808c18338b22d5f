/**
 * The meta-tool mode (`api.tool_mode: meta`): a server that lists three tools instead of every plan
 * tool, for APIs whose tool list would not fit a model's context.
 *
 * | Tool | Arguments | Answer |
 * |---|---|---|
 * | `search_tools` | `query`, `limit` (1-25, default 10) | matching tool names with one-line summaries, best first |
 * | `describe_tool` | `name` | the tool's full description, input schema, risk and approval flag |
 * | `invoke_tool` | `name`, `arguments` | the tool's own result |
 *
 * `invoke_tool` calls the plan tool on a second, unlisted server through that server's whole pipeline
 * (argument validation, auth, the approval gate, middleware, error mapping), on behalf of the same
 * request (headers, session, cancellation): a call through it is exactly a direct call.
 *
 * @module
 */

import { callToolAs, type JsonSchemaObject, ToolError, type ToolServer } from "../../mcp/mod.ts";
import { type McpcastPlan, META_TOOL_NAMES, type ToolPlan } from "../plan/mod.ts";
import { planToolOptions, type PlanToolSettings } from "./tool_options.ts";

/** Most matches `search_tools` answers with. */
export const SEARCH_LIMIT_MAX = 25;
/** Matches `search_tools` answers with when no `limit` is given. */
const SEARCH_LIMIT_DEFAULT = 10;
/** Longest one-line summary in a search answer. */
const SUMMARY_MAX = 160;
/** Longest query accepted. */
const QUERY_MAX = 200;

/** One match of a search. */
export interface ToolMatch {
  /** Tool name (pass it to `describe_tool` and `invoke_tool`). */
  name: string;
  /** The first line of its description, clipped. */
  summary: string;
  /** Present and true when every call waits for a human. */
  requires_approval?: true;
}

function summaryOf(tool: ToolPlan): string {
  const line = tool.description.trim().split("\n")[0].trim();
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1)}…` : line;
}

/** Words a query or a name carries no meaning in. */
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "by",
  "for",
  "in",
  "is",
  "my",
  "of",
  "on",
  "or",
  "the",
  "to",
  "what",
  "who",
  "with",
]);

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word.length > 1 && !STOP_WORDS.has(word));
}

/** A word and its singular (`pets` → `pet`, `repositories` → `repository`). */
function forms(word: string): string[] {
  if (word.length > 4 && word.endsWith("ies")) return [word, `${word.slice(0, -3)}y`];
  return word.length > 3 && word.endsWith("s") ? [word, word.slice(0, -1)] : [word];
}

/** Whether one word abbreviates the other (`repo` and `repository`), both at least three letters. */
function abbreviates(a: string, b: string): boolean {
  return a.length >= 3 && b.length >= 3 && (a.startsWith(b) || b.startsWith(a));
}

/**
 * How well `tool` matches `words`: per query word, 4 for a word of the name (3 for an abbreviation
 * of one), 2 for a tag, 1 for a word of the summary line (0.5 for one further down); then half a
 * point off for each word of the name the query did not mention, so the closest name wins.
 */
function score(tool: ToolPlan, words: readonly string[]): number {
  const nameWords = tool.name.split("_").filter((word) => word !== "" && !STOP_WORDS.has(word));
  const tags = tool.tags.map((tag) => tag.toLowerCase());
  const [summary, ...rest] = tool.description.toLowerCase().split("\n");
  const summaryWords = new Set(wordsOf(summary));
  const restWords = new Set(wordsOf(rest.join(" ")));
  const matched = new Set<string>();
  let total = 0;
  for (const word of words) {
    const variants = forms(word);
    const exact = nameWords.find((name) => forms(name).some((form) => variants.includes(form)));
    const near = exact ?? nameWords.find((name) => variants.some((form) => abbreviates(form, name)));
    if (near !== undefined) {
      matched.add(near);
      total += exact !== undefined ? 4 : 3;
    }
    if (tags.some((tag) => variants.some((form) => tag.includes(form)))) total += 2;
    if (variants.some((form) => summaryWords.has(form))) total += 1;
    else if (variants.some((form) => restWords.has(form))) total += 0.5;
  }
  if (total === 0) return 0;
  return total - 0.5 * nameWords.filter((name) => !matched.has(name)).length;
}

/**
 * The plan tools matching `query`, best first (name words weigh most, then tags, then the
 * description; ties in plan order), at most `limit`; a query without words lists tools in plan order.
 */
export function searchPlanTools(
  tools: readonly ToolPlan[],
  query: string,
  limit: number = SEARCH_LIMIT_DEFAULT,
): { matches: ToolMatch[]; total: number } {
  const words = wordsOf(query);
  const ranked = words.length === 0
    ? tools.map((tool) => ({ tool, score: 1 }))
    : tools.map((tool) => ({ tool, score: score(tool, words) })).filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
  const matches = ranked.slice(0, limit).map(({ tool }): ToolMatch =>
    tool.requires_approval
      ? { name: tool.name, summary: summaryOf(tool), requires_approval: true }
      : { name: tool.name, summary: summaryOf(tool) }
  );
  return { matches, total: ranked.length };
}

const SEARCH_INPUT: JsonSchemaObject = {
  type: "object",
  properties: {
    query: {
      type: "string",
      minLength: 1,
      maxLength: QUERY_MAX,
      description: "Words describing the task or the resource (e.g. 'list open issues').",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: SEARCH_LIMIT_MAX,
      description: `Most matches to return (default ${SEARCH_LIMIT_DEFAULT}).`,
    },
  },
  required: ["query"],
  additionalProperties: false,
};

const NAME_PROPERTY = { type: "string", minLength: 1, maxLength: 64, description: "The tool's name." };

const DESCRIBE_INPUT: JsonSchemaObject = {
  type: "object",
  properties: { name: NAME_PROPERTY },
  required: ["name"],
  additionalProperties: false,
};

const INVOKE_INPUT: JsonSchemaObject = {
  type: "object",
  properties: {
    name: NAME_PROPERTY,
    arguments: {
      type: "object",
      description: "The tool's arguments, as its input schema (from describe_tool) asks.",
    },
  },
  required: ["name"],
  additionalProperties: false,
};

function unknownTool(name: string): ToolError {
  return new ToolError("TOOL_NOT_FOUND", `Unknown tool: ${name.slice(0, 64)}`, {
    suggestion: "Find the tool's exact name with search_tools",
  });
}

/**
 * Registers `search_tools`, `describe_tool` and `invoke_tool` on `server` for the tools of `plan`,
 * which `tools` (an unlisted server carrying every plan tool with its own pipeline) serves;
 * `settings` as for {@linkcode planToolOptions}, so `describe_tool` shows what a direct listing would.
 */
export function registerMetaTools(
  server: ToolServer,
  plan: McpcastPlan,
  tools: ToolServer,
  settings: PlanToolSettings = {},
): ToolServer {
  const byName = new Map(plan.tools.map((tool) => [tool.name, tool]));
  const find = (name: string) => {
    const tool = byName.get(name);
    if (tool === undefined) throw unknownTool(name);
    return tool;
  };
  const [search, describe, invoke] = META_TOOL_NAMES;
  const count = `${plan.tools.length} tool${plan.tools.length === 1 ? "" : "s"}`;
  server.tool(search, {
    description: `Search the ${count} of the ${plan.api.name} API by what they do; answers tool names ` +
      `with one-line summaries, best first. Then read a tool with ${describe} and call it with ${invoke}.`,
    input: SEARCH_INPUT,
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: false,
  }, (args) => searchPlanTools(plan.tools, String(args.query), Number(args.limit ?? SEARCH_LIMIT_DEFAULT)));
  server.tool(describe, {
    description: `The full description and input schema of one ${plan.api.name} tool (a name from ` +
      `${search}), and whether a human must approve its calls.`,
    input: DESCRIBE_INPUT,
    readOnlyHint: true,
    idempotentHint: true,
    openWorldHint: false,
  }, (args) => {
    const tool = find(String(args.name));
    const options = planToolOptions(tool, settings);
    return {
      name: tool.name,
      description: options.description,
      input_schema: options.input,
      risk: tool.risk,
      requires_approval: tool.requires_approval,
    };
  });
  server.tool(invoke, {
    description: `Calls one ${plan.api.name} tool by name with its arguments and answers with its ` +
      `result. Read the tool with ${describe} first; calls to tools that require approval wait for a human.`,
    input: INVOKE_INPUT,
    readOnlyHint: false,
    destructiveHint: plan.tools.some((tool) => tool.risk === "destructive"),
    openWorldHint: true,
  }, (args, ctx) => {
    const tool = find(String(args.name));
    return callToolAs(tools, tool.name, args.arguments ?? {}, ctx);
  });
  return server;
}

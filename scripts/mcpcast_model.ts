/**
 * A scripted stand-in for a model, for mcpcast's curation and evaluation without a model key: the docs'
 * walk-through and tests run `agentry mcpcast --model openai-compatible:scripted --eval` against it
 * (`deno task model-server --mcpcast`). It is a few rules, not a model, and its figures are labelled as
 * such wherever they are shown.
 *
 * - Curation prompts: drops deprecated, health, admin and internal operations and those the profile
 *   removes; merges the reads of one resource (a collection and its items: the path without a trailing
 *   `{param}`) into `find_<resource>` when their required parameters tell them apart (most specific
 *   first), else keeps them apart; one tool per write; names from operation ids in snake_case; keeps the
 *   budget, reads first.
 * - Task prompts: one request per tool in turn, phrased from the tool's name and example.
 * - Agent turns: calls the offered tool whose name and description share the most words with the request,
 *   with the request's `name value` pairs for its parameters, then answers with the result's first line.
 *
 * @module
 */

import type { RecordedRequest, ScriptedReply } from "../src/models/testing/mod.ts";

interface CatalogueOp {
  operation_id: string;
  method: string;
  path: string;
  summary: string;
  deprecated: boolean;
  risk: string;
  params: Array<{ name: string; required: boolean }>;
}

type Json = Record<string, unknown>;

const VERSION_SEGMENT = /^(v\d+(\.\d+)?|api)$/i;
const NOT_FOR_AGENTS = /(^|\/)(health|healthz|admin|internal|metrics|webhooks?)(\/|$)/i;

/** The reply of the scripted model to `request`. */
export function mcpcastModelReply(request: RecordedRequest): ScriptedReply {
  const system = request.messages.find((m) => m.role === "system")?.content ?? "";
  const user = [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  if (system.startsWith("You design the tool surface")) return { text: JSON.stringify(curation(user)) };
  if (system.startsWith("You test how well an AI agent")) return { text: JSON.stringify(tasks(user)) };
  const last = request.messages.at(-1);
  if (last?.role === "tool") return { text: `Done. ${last.content.split("\n")[0].slice(0, 160)}` };
  return agentTurn(user, offeredTools(request));
}

/** The JSON objects on the lines of `text` that parse as objects. */
function jsonLines(text: string): Json[] {
  const out: Json[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // not a catalogue line
    }
  }
  return out;
}

function snake(text: string): string {
  const words = text.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().replace(/[^a-z0-9]+/g, "_");
  const name = words.replace(/^_+|_+$/g, "").replace(/^(\d)/, "op_$1").slice(0, 60);
  return name === "" ? "tool" : name;
}

/** A read's resource: its path without a trailing `{param}` (a collection and its items share one). */
function resourceOf(path: string): string {
  return path.replace(/\/\{[^}]+\}$/, "");
}

/** A merged tool's name: `find_` and the resource's last two literal segments. */
function resourceName(resource: string): string {
  const literal = resource.split("/").filter((s) =>
    s !== "" && !s.startsWith("{") && !VERSION_SEGMENT.test(s)
  );
  return snake(literal.slice(-2).join("_") || "api");
}

function requiredOf(op: CatalogueOp): Set<string> {
  return new Set(op.params.filter((p) => p.required).map((p) => p.name));
}

/** Whether `ops` (most required parameters first) dispatch: no earlier route's needs fit in a later one's. */
function dispatchable(ops: readonly CatalogueOp[]): boolean {
  return ops.every((earlier, j) =>
    ops.slice(j + 1).every((later) => ![...requiredOf(earlier)].every((name) => requiredOf(later).has(name)))
  );
}

function curation(user: string): Json {
  const budget = Number(/at most (\d+) tools/.exec(user)?.[1] ?? 25);
  const kept = (/only tools of risk ([a-z, ]+) are/.exec(user)?.[1] ?? "read").split(", ");
  const ops = jsonLines(user) as unknown as CatalogueOp[];
  const dropped: Json[] = [];
  const usable: CatalogueOp[] = [];
  for (const op of ops) {
    if (op.deprecated) dropped.push({ operation_id: op.operation_id, reason: "deprecated in the spec" });
    else if (NOT_FOR_AGENTS.test(op.path)) {
      dropped.push({ operation_id: op.operation_id, reason: "not for an end user's agent" });
    } else if (!kept.includes(op.risk)) {
      dropped.push({ operation_id: op.operation_id, reason: `the profile removes ${op.risk} operations` });
    } else usable.push(op);
  }
  const tools: Json[] = [];
  const taken = new Set<string>();
  const unique = (name: string) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
    taken.add(candidate);
    return candidate;
  };
  const reads = new Map<string, CatalogueOp[]>();
  for (const op of usable.filter((o) => o.risk === "read")) {
    reads.set(resourceOf(op.path), [...(reads.get(resourceOf(op.path)) ?? []), op]);
  }
  for (const [resource, group] of reads) {
    const ordered = [...group].sort((a, b) => requiredOf(b).size - requiredOf(a).size);
    if (group.length > 1 && dispatchable(ordered)) {
      const needs = ordered.map((op) => [...requiredOf(op)].join(" and ") || "nothing");
      const name = resourceName(resource);
      tools.push({
        name: unique(`find_${name}`),
        description: `Finds ${name.replaceAll("_", " ")}: ${
          ordered.map((op, i) => `${op.summary || op.path} (give ${needs[i]})`).join("; ")
        }. ` +
          "Read-only; returns what the API answers.",
        risk: "read",
        operations: ordered.map((op) =>
          op.operation_id
        ),
      });
    } else {
      for (const op of group) tools.push(single(op, unique));
    }
  }
  for (const op of usable.filter((o) => o.risk !== "read")) tools.push(single(op, unique));
  for (const extra of tools.splice(budget)) {
    for (const id of extra.operations as string[]) {
      dropped.push({ operation_id: id, reason: "over the tool budget" });
    }
  }
  return { tools, dropped };
}

function single(op: CatalogueOp, unique: (name: string) => string): Json {
  const what = op.summary || `${op.method} ${op.path}`;
  const effect = op.risk === "read" ? "Read-only" : "Changes data on the API";
  return {
    name: unique(snake(op.operation_id)),
    description: `${what.replace(/\.$/, "")}. ${effect}; returns what the API answers.`,
    risk: op.risk,
    operations: [op.operation_id],
  };
}

function tasks(user: string): Json {
  const count = Number(/Write (\d+) tasks/.exec(user)?.[1] ?? 5);
  const tools = jsonLines(user);
  const out = [];
  for (let i = 0; i < count && tools.length > 0; i++) {
    const tool = tools[i % tools.length];
    const example = (tool.example ?? {}) as Json;
    const values = Object.entries(example).filter(([, value]) => value === null || typeof value !== "object")
      .map(([name, value]) => `${name} ${JSON.stringify(value)}`);
    const ask = String(tool.name).replaceAll("_", " ");
    out.push({
      id: `t${i + 1}`,
      prompt: `Please ${ask}${values.length ? ` with ${values.join(", ")}` : ""}.`,
      expected_tool: tool.name,
      rationale: "one task per tool, in turn",
    });
  }
  return { tasks: out };
}

interface Offered {
  name: string;
  description: string;
  properties: Json;
}

function offeredTools(request: RecordedRequest): Offered[] {
  const tools = (request.body.tools ?? []) as Array<{ function?: Json; name?: string }>;
  return tools.map((tool) => {
    const fn = (tool.function ?? tool) as Json;
    const schema = (fn.parameters ?? fn.input_schema ?? {}) as Json;
    return {
      name: String(fn.name),
      description: String(fn.description ?? ""),
      properties: (schema.properties ?? {}) as Json,
    };
  });
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2));
}

function agentTurn(user: string, tools: Offered[]): ScriptedReply {
  if (tools.length === 0) return { text: "I have no tools for that." };
  const asked = words(user);
  const score = (tool: Offered) =>
    [...words(tool.name)].filter((w) => asked.has(w)).length * 3 +
    [...words(tool.description)].filter((w) => asked.has(w)).length;
  const best = tools.reduce((a, b) => (score(b) > score(a) ? b : a));
  const args: Json = {};
  for (const name of Object.keys(best.properties)) {
    const found = new RegExp(`\\b${name} ("[^"]*"|[^,.\\s]+)`).exec(user);
    if (found) args[name] = found[1].startsWith('"') ? JSON.parse(found[1]) : coerce(found[1]);
  }
  return { toolCalls: [{ name: best.name, arguments: args }] };
}

function coerce(text: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

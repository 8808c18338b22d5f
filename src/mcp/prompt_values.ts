/**
 * Prompt arguments (advertised list, string coercion) and prompt results.
 *
 * Prompt arguments arrive as strings. Before validation each one is coerced to the type its schema
 * field declares: numbers, booleans, and JSON for objects and arrays; strings stay as they are.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { GetPromptResult, PromptArgument, PromptMessage } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

function baseType(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/** The `arguments` list advertised in `prompts/list`. */
export function promptArguments(schema: z.ZodObject | undefined): PromptArgument[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const type = field as z.ZodType;
    const argument: PromptArgument = { name, required: !type.safeParse(undefined).success };
    if (type.description) argument.description = type.description;
    return argument;
  });
}

function coerce(value: string, schema: z.ZodType): unknown {
  const base = baseType(schema);
  if (base instanceof z.ZodNumber) return value.trim() === "" ? value : Number(value);
  if (base instanceof z.ZodBoolean) return value === "true" ? true : value === "false" ? false : value;
  if (base instanceof z.ZodObject || base instanceof z.ZodArray || base instanceof z.ZodRecord) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** `raw` string arguments coerced to `schema`'s field types (unknown names pass through). */
export function coercePromptArguments(
  raw: Record<string, string> | undefined,
  schema: z.ZodObject | undefined,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    const field = schema?.shape[name] as z.ZodType | undefined;
    args[name] = field && typeof value === "string" ? coerce(value, field) : value;
  }
  return args;
}

function isMessage(value: unknown): value is { role: "user" | "assistant"; content: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const { role } = value as { role?: unknown };
  return (role === "user" || role === "assistant") && "content" in value;
}

function toMessage(value: unknown): PromptMessage {
  if (typeof value === "string") return { role: "user", content: { type: "text", text: value } };
  if (isMessage(value)) {
    const content = typeof value.content === "string" ? { type: "text", text: value.content } : value.content;
    return { role: value.role, content } as PromptMessage;
  }
  return { role: "user", content: { type: "text", text: JSON.stringify(value) } };
}

/**
 * A prompt handler's return value as a `GetPromptResult`: a string is one user message; a message
 * or `{role, content}` map (content may be a string) is one message; a list is many; an object with
 * `messages` passes through.
 */
export function toPromptResult(value: unknown, description?: string): GetPromptResult {
  if (
    typeof value === "object" && value !== null && Array.isArray((value as { messages?: unknown }).messages)
  ) {
    return value as GetPromptResult;
  }
  const messages = Array.isArray(value) ? value.map(toMessage) : [toMessage(value)];
  return description === undefined ? { messages } : { description, messages };
}

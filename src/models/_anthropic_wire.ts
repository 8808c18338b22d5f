/**
 * The Anthropic Messages API wire format: system text, messages with `tool_use` / `tool_result` blocks,
 * tools and the answer schemas.
 *
 * @module
 */

import { z } from "zod";
import type { ChatMessage, ToolSpec } from "./types.ts";

/** The system messages joined for `system` (undefined when there are none). */
export function anthropicSystem(messages: readonly ChatMessage[]): string | undefined {
  const system = messages.filter((message) => message.role === "system").map((message) => message.content);
  return system.length > 0 ? system.join("\n\n") : undefined;
}

function toolInput(text: string): unknown {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** Our non-system messages as Messages API messages; consecutive tool results share one user message. */
export function anthropicMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let results: Record<string, unknown>[] | undefined;
  for (const message of messages) {
    if (message.role !== "tool") results = undefined;
    switch (message.role) {
      case "system":
        break;
      case "user":
        out.push({ role: "user", content: message.content });
        break;
      case "assistant": {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          out.push({ role: "assistant", content: message.content });
          break;
        }
        const blocks: Record<string, unknown>[] = [];
        if (message.content !== "") blocks.push({ type: "text", text: message.content });
        for (const call of calls) {
          blocks.push({ type: "tool_use", id: call.id, name: call.name, input: toolInput(call.arguments) });
        }
        out.push({ role: "assistant", content: blocks });
        break;
      }
      case "tool": {
        const block: Record<string, unknown> = {
          type: "tool_result",
          tool_use_id: message.toolCallId,
          content: message.content,
        };
        if (message.isError) block.is_error = true;
        if (results === undefined) {
          results = [];
          out.push({ role: "user", content: results });
        }
        results.push(block);
        break;
      }
    }
  }
  return out;
}

/** Our tools as Messages API tools. */
export function anthropicTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  }));
}

const usageSchema = z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() });

/** A content block of an answer (text and tool_use are read; others skipped). */
export const contentBlockSchema = z.object({
  type: z.string(),
  text: z.string().nullish(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  input: z.unknown().optional(),
});

/** A non-streamed Messages answer (the fields we read). */
export const messageSchema = z.object({
  content: z.array(contentBlockSchema),
  stop_reason: z.string().nullish(),
  usage: usageSchema.nullish(),
});

/** A streamed Messages event (the fields we read of every event type). */
export const messageEventSchema = z.object({
  type: z.string(),
  index: z.number().nullish(),
  message: z.object({ usage: usageSchema.nullish() }).nullish(),
  content_block: contentBlockSchema.nullish(),
  delta: z.object({
    type: z.string().nullish(),
    text: z.string().nullish(),
    partial_json: z.string().nullish(),
    stop_reason: z.string().nullish(),
  }).nullish(),
  usage: usageSchema.nullish(),
});

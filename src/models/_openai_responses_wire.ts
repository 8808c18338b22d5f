/**
 * The OpenAI Responses API wire format: input items, tools and the answer schema.
 *
 * @module
 */

import { z } from "zod";
import type { ChatMessage, ToolSpec } from "./types.ts";

/** The system messages joined for `instructions` (undefined when there are none). */
export function responsesInstructions(messages: readonly ChatMessage[]): string | undefined {
  const system = messages.filter((message) => message.role === "system").map((message) => message.content);
  return system.length > 0 ? system.join("\n\n") : undefined;
}

/** Our non-system messages as Responses input items (tool calls as `function_call`, results as
 * `function_call_output`, both keyed by `call_id`; no item ids, since nothing is stored server-side). */
export function responsesInput(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        break;
      case "user":
        items.push({ type: "message", role: "user", content: message.content });
        break;
      case "assistant":
        if (message.content !== "" || (message.toolCalls ?? []).length === 0) {
          items.push({ type: "message", role: "assistant", content: message.content });
        }
        for (const call of message.toolCalls ?? []) {
          items.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.arguments });
        }
        break;
      case "tool":
        items.push({ type: "function_call_output", call_id: message.toolCallId, output: message.content });
        break;
    }
  }
  return items;
}

/** Our tools as Responses function tools. */
export function responsesTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
  }));
}

/** A `message` output item (the fields we read). */
export const messageItemSchema = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().nullish() })),
});

/** A `function_call` output item. */
export const functionCallItemSchema = z.object({
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
});

/** A Responses answer (the fields we read); also `response` of the `response.completed` event. */
export const responseSchema = z.object({
  status: z.string().nullish(),
  output: z.array(z.looseObject({ type: z.string() })),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).nullish(),
  incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
});

/** A streamed Responses event (the fields we read). */
export const responseEventSchema = z.object({
  type: z.string(),
  delta: z.string().nullish(),
  response: z.unknown().optional(),
});

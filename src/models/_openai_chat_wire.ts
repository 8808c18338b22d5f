/**
 * The Chat Completions wire format: request messages and tools, and the answer schemas.
 *
 * @module
 */

import { z } from "zod";
import type { ChatMessage, ToolSpec } from "./types.ts";

/** Our messages as Chat Completions messages (tool results as `tool` messages with `tool_call_id`). */
export function chatMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  return messages.map((message) => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: "assistant", content: message.content };
        return {
          role: "assistant",
          content: message.content === "" ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        };
      }
      case "tool":
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

/** Our tools as Chat Completions function tools. */
export function chatTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

const usageSchema = z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish();

/** A non-streamed Chat Completions answer (the fields we read). */
export const chatCompletionSchema = z.object({
  choices: z.array(z.object({
    message: z.object({
      content: z.string().nullish(),
      tool_calls: z.array(z.object({
        id: z.string().nullish(),
        function: z.object({ name: z.string(), arguments: z.string().nullish() }),
      })).nullish(),
    }),
    finish_reason: z.string().nullish(),
  })).min(1),
  usage: usageSchema,
});

/** One streamed Chat Completions chunk (the fields we read). */
export const chatChunkSchema = z.object({
  choices: z.array(z.object({
    delta: z.object({
      content: z.string().nullish(),
      tool_calls: z.array(z.object({
        index: z.number(),
        id: z.string().nullish(),
        function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
      })).nullish(),
    }).nullish(),
    finish_reason: z.string().nullish(),
  })).nullish(),
  usage: usageSchema,
  error: z.unknown().optional(),
});

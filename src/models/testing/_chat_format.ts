/**
 * The model server's Chat Completions format (`POST /v1/chat/completions`).
 *
 * @module
 */

import type { ChatMessage, ToolCall } from "../types.ts";
import { contentText, list, pieces, record, type ReplyTurn, sse, text, type WireFormat } from "./_wire.ts";

function parseMessages(body: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const names = new Map<string, string>();
  for (const item of list(body.messages)) {
    const message = record(item) ?? {};
    const role = message.role;
    if (role === "system" || role === "developer") {
      messages.push({ role: "system", content: contentText(message.content) });
    } else if (role === "user") messages.push({ role: "user", content: contentText(message.content) });
    else if (role === "assistant") {
      const toolCalls: ToolCall[] = list(message.tool_calls).map((value) => {
        const call = record(value) ?? {};
        const fn = record(call.function) ?? {};
        const toolCall = { id: text(call.id), name: text(fn.name), arguments: text(fn.arguments) };
        names.set(toolCall.id, toolCall.name);
        return toolCall;
      });
      const content = contentText(message.content);
      messages.push(
        toolCalls.length > 0 ? { role: "assistant", content, toolCalls } : { role: "assistant", content },
      );
    } else if (role === "tool") {
      const id = text(message.tool_call_id);
      messages.push({
        role: "tool",
        toolCallId: id,
        name: names.get(id) ?? "",
        content: contentText(message.content),
      });
    }
  }
  return messages;
}

function finishReason(turn: ReplyTurn): string {
  return turn.calls.length > 0 ? "tool_calls" : "stop";
}

function usage(turn: ReplyTurn): Record<string, number> {
  const { input_tokens, output_tokens } = turn.usage;
  return {
    prompt_tokens: input_tokens,
    completion_tokens: output_tokens,
    total_tokens: input_tokens + output_tokens,
  };
}

/** Chat Completions requests and answers. */
export const CHAT_FORMAT: WireFormat = {
  parse: (body) => ({
    messages: parseMessages(body),
    tools: list(body.tools).map((tool) => text(record(record(tool)?.function)?.name)),
    stream: body.stream === true,
  }),
  json: (turn) => {
    const message: Record<string, unknown> = {
      role: "assistant",
      content: turn.text === "" ? null : turn.text,
    };
    if (turn.calls.length > 0) {
      message.tool_calls = turn.calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }));
    }
    return JSON.stringify({
      id: `chatcmpl-${turn.seq}`,
      object: "chat.completion",
      created: 0,
      model: turn.model,
      choices: [{ index: 0, message, finish_reason: finishReason(turn) }],
      usage: usage(turn),
    });
  },
  events: (turn) => {
    const head = {
      id: `chatcmpl-${turn.seq}`,
      object: "chat.completion.chunk",
      created: 0,
      model: turn.model,
    };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      sse({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] });
    const out = [chunk({ role: "assistant", content: "" })];
    for (const piece of pieces(turn.text)) out.push(chunk({ content: piece }));
    turn.calls.forEach((call, index) => {
      const start = { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
      out.push(chunk({ tool_calls: [start] }));
      for (const piece of pieces(call.arguments, 16)) {
        out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    if (turn.truncated) return out;
    out.push(chunk({}, finishReason(turn)));
    if (turn.streamUsage) out.push(sse({ ...head, choices: [], usage: usage(turn) }));
    out.push(sse("[DONE]"));
    return out;
  },
};

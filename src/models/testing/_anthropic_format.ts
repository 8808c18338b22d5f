/**
 * The model server's Anthropic Messages format (`POST /v1/messages`).
 *
 * @module
 */

import type { ChatMessage, ToolCall } from "../types.ts";
import { contentText, list, pieces, record, type ReplyTurn, sse, text, type WireFormat } from "./_wire.ts";

function parseBlocks(message: Record<string, unknown>, names: Map<string, string>): ChatMessage[] {
  const { role, content } = message;
  if (typeof content === "string") {
    return [role === "assistant" ? { role, content } : { role: "user", content }];
  }
  const out: ChatMessage[] = [];
  let body = "";
  const toolCalls: ToolCall[] = [];
  for (const value of list(content)) {
    const block = record(value) ?? {};
    if (block.type === "text") body += text(block.text);
    else if (block.type === "tool_use") {
      const call = {
        id: text(block.id),
        name: text(block.name),
        arguments: JSON.stringify(block.input ?? {}),
      };
      names.set(call.id, call.name);
      toolCalls.push(call);
    } else if (block.type === "tool_result") {
      const id = text(block.tool_use_id);
      const result: ChatMessage = {
        role: "tool",
        toolCallId: id,
        name: names.get(id) ?? "",
        content: contentText(block.content),
      };
      if (block.is_error === true) result.isError = true;
      out.push(result);
    }
  }
  if (role === "assistant") {
    out.push(toolCalls.length > 0 ? { role, content: body, toolCalls } : { role, content: body });
  } else if (body !== "") out.push({ role: "user", content: body });
  return out;
}

function parseMessages(body: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (body.system !== undefined) messages.push({ role: "system", content: contentText(body.system) });
  const names = new Map<string, string>();
  for (const value of list(body.messages)) {
    const message = record(value) ?? {};
    messages.push(...parseBlocks(message, names));
  }
  return messages;
}

function input(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

function stopReason(turn: ReplyTurn): string {
  return turn.calls.length > 0 ? "tool_use" : "end_turn";
}

/** Messages API requests and answers. */
export const ANTHROPIC_FORMAT: WireFormat = {
  parse: (body) => ({
    messages: parseMessages(body),
    tools: list(body.tools).map((tool) => text(record(tool)?.name)),
    stream: body.stream === true,
  }),
  json: (turn) => {
    const content: Record<string, unknown>[] = [];
    if (turn.text !== "") content.push({ type: "text", text: turn.text });
    for (const call of turn.calls) {
      content.push({ type: "tool_use", id: call.id, name: call.name, input: input(call.arguments) });
    }
    return JSON.stringify({
      id: `msg_${turn.seq}`,
      type: "message",
      role: "assistant",
      model: turn.model,
      content,
      stop_reason: stopReason(turn),
      stop_sequence: null,
      usage: turn.usage,
    });
  },
  events: (turn) => {
    const event = (type: string, data: Record<string, unknown>) => sse({ type, ...data }, type);
    const message = {
      id: `msg_${turn.seq}`,
      type: "message",
      role: "assistant",
      model: turn.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: turn.usage.input_tokens, output_tokens: 1 },
    };
    const out = [event("message_start", { message })];
    let index = 0;
    if (turn.text !== "") {
      out.push(event("content_block_start", { index, content_block: { type: "text", text: "" } }));
      for (const piece of pieces(turn.text)) {
        out.push(event("content_block_delta", { index, delta: { type: "text_delta", text: piece } }));
      }
      out.push(event("content_block_stop", { index }));
      index++;
    }
    for (const call of turn.calls) {
      const content_block = { type: "tool_use", id: call.id, name: call.name, input: {} };
      out.push(event("content_block_start", { index, content_block }));
      for (const partial_json of pieces(call.arguments, 16)) {
        out.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } }));
      }
      out.push(event("content_block_stop", { index }));
      index++;
    }
    if (turn.truncated) return out;
    const delta = { stop_reason: stopReason(turn), stop_sequence: null };
    out.push(event("message_delta", { delta, usage: { output_tokens: turn.usage.output_tokens } }));
    out.push(event("message_stop", {}));
    return out;
  },
};

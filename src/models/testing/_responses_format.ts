/**
 * The model server's OpenAI Responses API format (`POST /v1/responses`).
 *
 * @module
 */

import type { ChatMessage } from "../types.ts";
import { contentText, list, pieces, record, type ReplyTurn, sse, text, type WireFormat } from "./_wire.ts";

function parseMessages(body: Record<string, unknown>): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (typeof body.instructions === "string") messages.push({ role: "system", content: body.instructions });
  if (typeof body.input === "string") return [...messages, { role: "user", content: body.input }];
  const names = new Map<string, string>();
  for (const value of list(body.input)) {
    const item = record(value) ?? {};
    const type = item.type ?? "message";
    if (type === "function_call") {
      const call = { id: text(item.call_id), name: text(item.name), arguments: text(item.arguments) };
      names.set(call.id, call.name);
      const last = messages.at(-1);
      if (last?.role === "assistant") (last.toolCalls ??= []).push(call);
      else messages.push({ role: "assistant", content: "", toolCalls: [call] });
    } else if (type === "function_call_output") {
      const id = text(item.call_id);
      messages.push({
        role: "tool",
        toolCallId: id,
        name: names.get(id) ?? "",
        content: contentText(item.output),
      });
    } else if (type === "message") {
      const content = contentText(item.content);
      if (item.role === "system" || item.role === "developer") messages.push({ role: "system", content });
      else if (item.role === "assistant") messages.push({ role: "assistant", content });
      else messages.push({ role: "user", content });
    }
  }
  return messages;
}

function outputItems(turn: ReplyTurn): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  if (turn.text !== "" || turn.calls.length === 0) items.push(messageItem(turn, turn.text));
  for (let index = 0; index < turn.calls.length; index++) items.push(callItem(turn, { index, done: true }));
  return items;
}

function messageItem(turn: ReplyTurn, value: string): Record<string, unknown> {
  const content = [{ type: "output_text", text: value, annotations: [] }];
  return { type: "message", id: `msg_${turn.seq}`, status: "completed", role: "assistant", content };
}

/** The `index`th function_call item, with its arguments when `done`. */
function callItem(turn: ReplyTurn, item: { index: number; done: boolean }): Record<string, unknown> {
  const { index, done } = item;
  const call = turn.calls[index];
  const args = done ? call.arguments : "";
  const id = `fc_${turn.seq}_${index}`;
  return {
    type: "function_call",
    id,
    call_id: call.id,
    name: call.name,
    arguments: args,
    status: "completed",
  };
}

function response(turn: ReplyTurn, done: boolean): Record<string, unknown> {
  const { input_tokens, output_tokens } = turn.usage;
  return {
    id: `resp_${turn.seq}`,
    object: "response",
    created_at: 0,
    status: done ? "completed" : "in_progress",
    model: turn.model,
    output: done ? outputItems(turn) : [],
    usage: done ? { input_tokens, output_tokens, total_tokens: input_tokens + output_tokens } : null,
  };
}

/** Responses API requests and answers. */
export const RESPONSES_FORMAT: WireFormat = {
  parse: (body) => ({
    messages: parseMessages(body),
    tools: list(body.tools).map((tool) => text(record(tool)?.name)),
    stream: body.stream === true,
  }),
  json: (turn) => JSON.stringify(response(turn, true)),
  events: (turn) => {
    let sequence_number = 0;
    const event = (type: string, data: Record<string, unknown>) =>
      sse({ type, sequence_number: sequence_number++, ...data }, type);
    const out = [event("response.created", { response: response(turn, false) })];
    let output_index = 0;
    if (turn.text !== "" || turn.calls.length === 0) {
      const item_id = `msg_${turn.seq}`;
      out.push(
        event("response.output_item.added", {
          output_index,
          item: { ...messageItem(turn, ""), content: [] },
        }),
      );
      for (const delta of pieces(turn.text)) {
        out.push(event("response.output_text.delta", { item_id, output_index, content_index: 0, delta }));
      }
      if (!turn.truncated) {
        out.push(event("response.output_item.done", { output_index, item: messageItem(turn, turn.text) }));
      }
      output_index++;
    }
    turn.calls.forEach((call, index) => {
      const item_id = `fc_${turn.seq}_${index}`;
      out.push(
        event("response.output_item.added", { output_index, item: callItem(turn, { index, done: false }) }),
      );
      for (const delta of pieces(call.arguments, 16)) {
        out.push(event("response.function_call_arguments.delta", { item_id, output_index, delta }));
      }
      out.push(
        event("response.output_item.done", { output_index, item: callItem(turn, { index, done: true }) }),
      );
      output_index++;
    });
    if (!turn.truncated) out.push(event("response.completed", { response: response(turn, true) }));
    return out;
  },
};

/**
 * The echo model: the model server's default reply, deterministic and useful without a model key.
 *
 * @module
 */

import type { ChatMessage } from "../types.ts";
import type { RecordedRequest, ScriptedReply } from "./model_server.ts";

const CALL_LINE = /^\s*call\s+(\S+)[ \t]*(.*)$/;

function argumentsOf(raw: string): Record<string, unknown> | string {
  if (raw.trim() === "") return {};
  try {
    const value = JSON.parse(raw);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : raw;
  } catch {
    return raw;
  }
}

function summary(results: ChatMessage[]): string {
  const lines = results.map((result) => {
    if (result.role !== "tool") return "";
    const name = result.name || result.toolCallId;
    return `- ${name}${result.isError ? " (error)" : ""}: ${result.content.slice(0, 200)}`;
  });
  return `Tool results:\n${lines.join("\n")}`;
}

const QUESTION = /\[(?:[A-Z]+ )?QUESTION\] Q(\d+)[^\n]*\n([^\n]*)/g;

/** `ANSWER Q<n>:` lines for the operator questions in the system messages (the inbox's block). */
function answers(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role !== "system") continue;
    for (const [, number, question] of message.content.matchAll(QUESTION)) {
      lines.push(
        `ANSWER Q${number}: you asked "${question.slice(0, 200)}"; the echo model can only repeat it.`,
      );
    }
  }
  return lines.length === 0 ? "" : `\n${lines.join("\n")}`;
}

/**
 * The echo model's answer to `request`:
 * - when tool results follow the last user message, a text summarising them (`Tool results:` and one
 *   line per result: its tool name and the first 200 characters of its content);
 * - else, when tools are offered and the last user message has lines `call <tool_name> <json args>`
 *   (args optional, `{}` by default; text that is not a JSON object is passed as it is), a tool call
 *   per line naming an offered tool (several lines: parallel calls); lines naming no offered tool give
 *   a text saying which tools are offered;
 * - else `Echo: ` and the first 200 characters of the last user message;
 * - and, with either text, an `ANSWER Q<n>:` line per operator question in the system messages (the
 *   inbox's block), so `/ask` gets an answer.
 */
export function echoReply(request: RecordedRequest): ScriptedReply {
  const messages = request.messages;
  let last = messages.length - 1;
  while (last >= 0 && messages[last].role !== "user") last--;
  const results = messages.slice(last + 1).filter((message) => message.role === "tool");
  if (results.length > 0) return { text: summary(results) + answers(messages) };
  const said = last >= 0 ? messages[last].content : "";
  if (request.tools.length > 0 && said.includes("call")) {
    const toolCalls: Array<{ name: string; arguments: Record<string, unknown> | string }> = [];
    const unknown: string[] = [];
    for (const line of said.split("\n")) {
      const match = CALL_LINE.exec(line);
      if (match === null) continue;
      if (request.tools.includes(match[1])) {
        toolCalls.push({ name: match[1], arguments: argumentsOf(match[2]) });
      } else unknown.push(match[1]);
    }
    if (toolCalls.length > 0) return { toolCalls };
    if (unknown.length > 0) {
      return {
        text: `No tool named ${unknown.join(", ")} is offered; offered tools: ${request.tools.join(", ")}`,
      };
    }
  }
  return { text: `Echo: ${said.slice(0, 200)}${answers(messages)}` };
}

/**
 * Side B of the agent-run benchmark: the same HTTP steps as an agent run, done with raw `fetch` and
 * nothing else. A run is one Chat Completions POST whose body is built from the first-turn body side A
 * sent (captured once: instructions, trigger message, tool list), its JSON answer read; with a tool step,
 * then one MCP `tools/call` POST over streamable HTTP (the session opened once up front, its SSE answer
 * read) and a second Chat Completions POST carrying the assistant's tool call and the tool result.
 *
 * @module
 */

import { callBody, type McpSession, openSession, rpcMessages } from "./_mcp_client.ts";
import { MCP_PATH, MCP_TOOL, PLAIN_REPLY, TOOL_REPLY, toolAnswer } from "./run_model_server.ts";
import type { RunOutcome } from "./_run_agent_side.ts";

/** A first-turn request body as side A sent it (parsed). */
export interface ChatBody {
  /** Model name. */
  model: string;
  /** Wire messages. */
  messages: Array<Record<string, unknown>>;
  /** Wire tools. */
  tools?: unknown[];
  [key: string]: unknown;
}

interface ChatAnswer {
  choices: Array<{
    message: { content: string | null; tool_calls?: Array<{ id: string; function: { arguments: string } }> };
  }>;
}

const JSON_HEADERS = { "content-type": "application/json" };
const MCP_ACCEPT = "application/json, text/event-stream";

/** The bare loop's runs against the model server at `modelUrl` and the MCP server at `mcpBase`. */
export class BareSide {
  #chatUrl: string;
  #mcpUrl: string;
  #mcpHeaders: Record<string, string>;
  #ids = 1;

  private constructor(modelUrl: string, mcpBase: string, session: McpSession) {
    this.#chatUrl = `${modelUrl}/chat/completions`;
    this.#mcpUrl = `${mcpBase}${MCP_PATH}`;
    this.#mcpHeaders = {
      ...JSON_HEADERS,
      accept: MCP_ACCEPT,
      "mcp-session-id": session.id,
      "mcp-protocol-version": session.protocolVersion,
    };
  }

  /** Opens the MCP session (once, outside the measured windows). */
  static async open(modelUrl: string, mcpBase: string): Promise<BareSide> {
    const session = await openSession({ baseUrl: mcpBase, path: MCP_PATH, headers: {} });
    return new BareSide(modelUrl, mcpBase, session);
  }

  /** One run without tools: one chat request built from `first`. */
  async plain(first: ChatBody): Promise<RunOutcome> {
    const answer = await this.#chat(first);
    return { ok: answer.choices[0]?.message.content === PLAIN_REPLY };
  }

  /** One run with a tool step: chat, `tools/call`, chat with the result. */
  async tool(first: ChatBody): Promise<RunOutcome> {
    const turn = (await this.#chat(first)).choices[0]?.message;
    const call = turn?.tool_calls?.[0];
    if (!call) return { ok: false };
    const args = JSON.parse(call.function.arguments) as { id: number };
    const response = await fetch(this.#mcpUrl, {
      method: "POST",
      headers: this.#mcpHeaders,
      body: callBody(this.#ids++, MCP_TOOL, args),
    });
    const text = await response.text();
    const [message] = rpcMessages(response.headers.get("content-type") ?? "", text) as Array<
      { result?: { content?: Array<{ text?: string }> } }
    >;
    const result = message?.result?.content?.[0]?.text ?? "";
    if (result !== toolAnswer(args.id)) return { ok: false };
    const second = await this.#chat({
      ...first,
      messages: [...first.messages, turn, { role: "tool", tool_call_id: call.id, content: result }],
    });
    return { ok: second.choices[0]?.message.content === TOOL_REPLY };
  }

  async #chat(body: ChatBody): Promise<ChatAnswer> {
    const response = await fetch(this.#chatUrl, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`model server answered ${response.status}: ${await response.text()}`);
    return await response.json() as ChatAnswer;
  }
}

/**
 * What the model server's three wire formats share: the turn to encode and SSE helpers.
 *
 * @module
 */

import type { ChatMessage, ToolCall, Usage } from "../types.ts";

/** A reply resolved for encoding. */
export interface ReplyTurn {
  /** The model name from the request. */
  model: string;
  /** A per-server sequence number, for ids. */
  seq: number;
  /** The assistant text. */
  text: string;
  /** The tool calls, arguments as JSON text. */
  calls: ToolCall[];
  /** The usage to report. */
  usage: Usage;
  /** Cut the answer before its end. */
  truncated: boolean;
  /** Report usage in a streamed chat answer (`stream_options.include_usage`). */
  streamUsage: boolean;
}

/** A request body read back into our shapes. */
export interface ParsedBody {
  /** The conversation. */
  messages: ChatMessage[];
  /** The offered tool names. */
  tools: string[];
  /** Whether the answer is to be streamed. */
  stream: boolean;
}

/** One wire format: reading its requests and writing its answers. */
export interface WireFormat {
  /** Reads a request body. */
  parse(body: Record<string, unknown>): ParsedBody;
  /** The non-streamed answer body. */
  json(turn: ReplyTurn): string;
  /** The streamed answer as SSE event texts (without the final ones when truncated). */
  events(turn: ReplyTurn): string[];
}

/** One SSE event text. */
export function sse(data: unknown, event?: string): string {
  const json = typeof data === "string" ? data : JSON.stringify(data);
  return event === undefined ? `data: ${json}\n\n` : `event: ${event}\ndata: ${json}\n\n`;
}

/** `text` in pieces of about `size` characters (at least one piece when non-empty). */
export function pieces(text: string, size = 32): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** `value` when it is a plain object. */
export function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

/** `value` as an array (empty when it is not one). */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` as a string ("" when it is not one). */
export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The text of a content value: a string, or an array of parts with `text`. */
export function contentText(value: unknown): string {
  if (typeof value === "string") return value;
  let out = "";
  for (const part of list(value)) out += text(record(part)?.text);
  return out;
}

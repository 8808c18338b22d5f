/**
 * Turning handler return values into MCP results, and the content helpers handlers can use.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult, ContentBlock, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "./request_context.ts";

/**
 * A tool result with metadata: the client sees only `content`; `metadata` is stored on the request
 * state (`response_metadata`) for audit and webhook middleware.
 */
export class ToolResponse {
  /** What the client receives (serialised like any handler result). */
  readonly content: unknown;
  /** Server-side metadata. */
  readonly metadata: Record<string, unknown>;

  /** Wraps `content` with `metadata`. */
  constructor(content: unknown, metadata: Record<string, unknown> = {}) {
    this.content = content;
    this.metadata = metadata;
  }
}

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource", "resource_link"]);

/** Whether `value` is an MCP content block. */
export function isContentBlock(value: unknown): value is ContentBlock {
  return typeof value === "object" && value !== null &&
    CONTENT_TYPES.has((value as { type?: unknown }).type as string);
}

function isCallToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== "object" || value === null || value instanceof ToolResponse) return false;
  const content = (value as { content?: unknown }).content;
  return Array.isArray(content) && content.every(isContentBlock);
}

/** An image content block from bytes. */
export function imageContent(data: Uint8Array, mimeType: string): ContentBlock {
  return { type: "image", data: toBase64(data), mimeType };
}

/** An audio content block from bytes. */
export function audioContent(data: Uint8Array, mimeType: string): ContentBlock {
  return { type: "audio", data: toBase64(data), mimeType };
}

/** Base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "OK";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * A handler's return value as a `CallToolResult`: strings and numbers become one text block,
 * `undefined` becomes "OK", JSON values become JSON text, content blocks pass through, and a list
 * holding any content block is a mixed list (other items stringified).
 */
export function toToolResult(value: unknown, ctx?: RequestContext): CallToolResult {
  if (value instanceof ToolResponse) {
    if (ctx) ctx.state.response_metadata = value.metadata;
    return toToolResult(value.content);
  }
  if (isCallToolResult(value)) return value;
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.some(isContentBlock)) {
    return {
      content: value.map((item): ContentBlock =>
        isContentBlock(item) ? item : { type: "text", text: asText(item) }
      ),
    };
  }
  return { content: [{ type: "text", text: asText(value) }] };
}

/** A resource handler's return value as a `ReadResourceResult` for `uri`. */
export function toResourceResult(value: unknown, uri: string, mimeType: string): ReadResourceResult {
  if (
    typeof value === "object" && value !== null && Array.isArray((value as { contents?: unknown }).contents)
  ) {
    return value as ReadResourceResult;
  }
  if (value instanceof Uint8Array) return { contents: [{ uri, mimeType, blob: toBase64(value) }] };
  return { contents: [{ uri, mimeType, text: asText(value) }] };
}

/**
 * Turning an MCP `tools/call` result into the text a model reads.
 *
 * - `text` blocks: their text; blocks are joined by newlines.
 * - `image` / `audio` blocks: a placeholder `[image image/png, 1234 bytes]` (decoded size).
 * - embedded `resource` blocks: the resource's text when it has text, else
 *   `[resource <uri>, <mimeType>, <n> bytes]`; `resource_link` blocks: `[resource link <uri>]`.
 * - `structuredContent`: as JSON when no block gave text (servers send both, the text for models).
 * - nothing at all: `(no output)`.
 * - The text is cut at {@linkcode MAX_TOOL_OUTPUT_CHARS} characters, followed by a line saying how many
 *   characters were left out.
 *
 * @module
 */

/** Longest text handed to the model for one tool result, in UTF-16 code units. */
export const MAX_TOOL_OUTPUT_CHARS = 20_000;

/** What a tool call gives the model. */
export interface ToolOutcome {
  /** Text for the model. */
  content: string;
  /** True when the call failed (the tool said so, or it could not be made). */
  isError: boolean;
}

type Block = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Bytes encoded by a base64 string. */
function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor(clean.length * 3 / 4) - padding);
}

function resourceText(resource: Block): string {
  const body = text(resource.text);
  if (body !== undefined) return body;
  const blob = text(resource.blob) ?? "";
  const mime = text(resource.mimeType) ?? "application/octet-stream";
  return `[resource ${text(resource.uri) ?? "?"}, ${mime}, ${base64Bytes(blob)} bytes]`;
}

/** One content block as text, and whether it counts as text (rather than a placeholder). */
function blockText(block: Block): { text: string; isText: boolean } {
  switch (block.type) {
    case "text":
      return { text: text(block.text) ?? "", isText: true };
    case "image":
    case "audio":
      return {
        text: `[${block.type} ${text(block.mimeType) ?? "unknown type"}, ${
          base64Bytes(text(block.data) ?? "")
        } bytes]`,
        isText: false,
      };
    case "resource": {
      const resource = (block.resource ?? {}) as Block;
      return { text: resourceText(resource), isText: text(resource.text) !== undefined };
    }
    case "resource_link":
      return { text: `[resource link ${text(block.uri) ?? "?"}]`, isText: false };
    default:
      return { text: `[${String(block.type)} content]`, isText: false };
  }
}

/** `value` cut to `limit` characters, with a line saying how much was left out. */
export function truncateText(value: string, limit: number = MAX_TOOL_OUTPUT_CHARS): string {
  if (value.length <= limit) return value;
  return `${value.slice(0, limit)}\n[truncated: ${value.length - limit} more characters]`;
}

/** The text of a `tools/call` result (see the module doc for the rules), truncated. */
export function resultText(result: Record<string, unknown>): string {
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const parts = blocks.map(blockText);
  const lines = parts.map((part) => part.text);
  if (!parts.some((part) => part.isText)) {
    const structured = result.structuredContent ?? result.toolResult;
    if (structured !== undefined) lines.unshift(JSON.stringify(structured));
  }
  const joined = lines.join("\n");
  return truncateText(joined === "" ? "(no output)" : joined);
}

/** The {@linkcode ToolOutcome} of a `tools/call` result; `isError` as the server set it. */
export function toolOutcome(result: Record<string, unknown>): ToolOutcome {
  return { content: resultText(result), isError: result.isError === true };
}

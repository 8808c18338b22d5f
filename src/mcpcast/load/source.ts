/**
 * Loading a spec from an object, a file path, an http(s) URL or inline JSON/YAML text, within the
 * limits of `limits.ts`, and returning it checked and scrubbed.
 *
 * @module
 */

import { resolve } from "node:path";
import { hostEnv } from "../../_util/host_env.ts";
import { permissionFailure } from "../../_util/permission_hint.ts";
import { readFileLimited } from "../../_util/read_file_limited.ts";
import { McpcastError } from "../errors.ts";
import { checkDocument } from "./check.ts";
import { fetchSpecText } from "./fetch.ts";
import { readSpecLimits, type SpecLimits } from "./limits.ts";
import type { EnvLookup } from "../types.ts";
import { scrubText } from "../_scrub.ts";
import { decodeSpecBytes, type SpecText } from "./decode.ts";
import { parseSpecText, type ParseSpecTextOptions } from "./text.ts";
import { looksLikeHttpUrl, reduceUrls } from "../_spec_url.ts";
import type { SpecMapping } from "../_spec_values.ts";

/** Options of {@link loadSpec}. */
export interface LoadSpecOptions {
  /** The fetch used for URL sources. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Environment lookup for the `MCPCAST_*` limits and `HOME`. @default the host environment */
  env?: EnvLookup;
  /** Cancels a download; its reason is thrown as is. */
  signal?: AbortSignal;
}

/** A loaded spec. */
export interface LoadedSpec {
  /** The document, checked (node budget, depth, `info`/`paths` shapes) and scrubbed. */
  document: SpecMapping;
  /** Public form of the source: `undefined` for an object, `"<inline>"` for text, else the path or URL. */
  sourceLabel?: string;
  /** Public form of the spec URL, for a URL source (relative server URLs resolve against it). */
  specUrl?: string;
  /** Absolute path of a file source (relative external references resolve against it). */
  path?: string;
  /** Bytes read, for a file or URL source. */
  bytes?: number;
}

/** Whether a source string is an inline document rather than a path or URL. */
export function isInlineSpec(source: string): boolean {
  const text = source.trimStart();
  return text.startsWith("{") || text.startsWith("openapi:") || text.startsWith("swagger:");
}

/**
 * Loads a spec. `source` is a mapping (copied, never modified), an `http(s)://` URL (scheme
 * case-insensitive; `user:pass@` sent as Basic auth, the query kept for the request only), inline
 * text starting with `{`, `openapi:` or `swagger:`, or a file path (`~` expanded).
 *
 * Throws {@link McpcastError} when the source cannot be found, read or parsed, or breaks a limit.
 *
 * @example
 * ```ts
 * const { document, sourceLabel } = await loadSpec("openapi: 3.1.0\ninfo: {title: Demo, version: '1'}\npaths: {}");
 * // sourceLabel === "<inline>"
 * ```
 */
export async function loadSpec(
  source: string | Record<string, unknown>,
  options: LoadSpecOptions = {},
): Promise<LoadedSpec> {
  const env = options.env ?? hostEnv;
  const limits = readSpecLimits(env);
  if (typeof source !== "string") return { document: checkDocument(source, limits, { copy: true }) };
  const trimmed = source.trim();
  if (looksLikeHttpUrl(trimmed)) {
    const { text, publicUrl, bytes } = await fetchSpecText(trimmed, {
      ...limits,
      fetch: options.fetch,
      signal: options.signal,
    });
    const document = checkDocument(parseSpecText(...specTextArgs(text, publicUrl, limits)), limits);
    return { document, sourceLabel: publicUrl, specUrl: publicUrl, bytes };
  }
  if (isInlineSpec(trimmed)) {
    if (utf8Length(trimmed, limits.maxBytes) > limits.maxBytes) throw tooLarge("<inline>", limits);
    const parsed = parseSpecText(trimmed, { label: "<inline>", maxNodes: limits.maxNodes });
    return { document: checkDocument(parsed, limits), sourceLabel: "<inline>" };
  }
  const label = reduceUrls(scrubText(trimmed)).slice(0, 200);
  const path = resolve(expandHome(trimmed, env));
  const { text, bytes } = await readSpecFile(path, label, limits);
  // The text is not kept in a variable so that it can be collected while the document is checked.
  const parsed = parseSpecText(...specTextArgs(text, label, limits));
  return { document: checkDocument(parsed, limits), sourceLabel: label, path, bytes };
}

/** Arguments of `parseSpecText` for decoded text. */
function specTextArgs(
  { text, escapes }: SpecText,
  label: string,
  limits: SpecLimits,
): [string, ParseSpecTextOptions] {
  return [text, { label, maxNodes: limits.maxNodes, escapes }];
}

async function readSpecFile(
  path: string,
  label: string,
  limits: SpecLimits,
): Promise<{ text: SpecText; bytes: number }> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      info = { isFile: false } as Deno.FileInfo;
    } else {
      throw cannotRead(error, label);
    }
  }
  if (!info.isFile) {
    throw new McpcastError(`spec not found: ${label} (expected a file path, URL, or inline document)`);
  }
  if (info.size > limits.maxBytes) throw tooLarge(label, limits);
  let bytes: Uint8Array | undefined;
  try {
    bytes = readFileLimited(path, limits.maxBytes);
  } catch (error) {
    throw cannotRead(error, label);
  }
  // The file may have grown since stat.
  if (bytes === undefined) throw tooLarge(label, limits);
  return { text: decodeSpecBytes(bytes), bytes: bytes.length };
}

function expandHome(path: string, env: EnvLookup): string {
  if (path !== "~" && !path.startsWith("~/")) return path;
  const home = env("HOME") ?? env("USERPROFILE");
  return home === undefined ? path : home + path.slice(1);
}

function tooLarge(label: string, limits: SpecLimits): McpcastError {
  return new McpcastError(`spec ${label} is larger than ${limits.maxBytes} bytes (MCPCAST_MAX_SPEC_BYTES)`);
}

/** UTF-8 length of `text`, counting only until it passes `cap`. */
function utf8Length(text: string, cap: number): number {
  if (text.length * 3 <= cap) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= cap; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** `cannot read spec X: …`, naming the flag to add when a permission is missing. */
function cannotRead(error: unknown, label: string): McpcastError {
  const denied = permissionFailure(error, { name: "read", path: label });
  if (denied !== undefined) return new McpcastError(`cannot read spec ${label}: ${denied}`);
  return new McpcastError(
    `cannot read spec ${label}: ${error instanceof Error ? error.name : "unknown error"}`,
  );
}

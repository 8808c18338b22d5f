/**
 * API-level facts of a spec: title, description, the one-line summary, the API name slug and the
 * base URL.
 *
 * @module
 */

import { McpcastError } from "../errors.ts";
import type { SpecInfo } from "../types.ts";
import { isMapping, type SpecMapping, trimmedString } from "../_spec_values.ts";
import { apiNameFor, specHost } from "./api_name.ts";

const SUMMARY_MAX = 300;

/** Options of {@link describeSpec}. */
export interface DescribeSpecOptions {
  /** Public form of the source (path or URL, `"<inline>"` for text, none for an object). */
  sourceLabel?: string;
  /** Public URL the spec was fetched from. */
  specUrl?: string;
  /** Base URL forced by the caller (wins over the spec's). */
  baseUrl?: string;
}

/** Title, description, version, API name, summary line and base URL of a spec. */
export function describeSpec(document: SpecMapping, options: DescribeSpecOptions = {}): SpecInfo {
  const info = isMapping(document.info) ? document.info : {};
  const title = trimmedString(info, "title");
  const description = trimmedString(info, "description");
  const version = typeof info.version === "number" ? String(info.version) : trimmedString(info, "version");
  const described: SpecInfo = {
    apiName: apiNameFor(title, { host: specHost(document), sourceLabel: options.sourceLabel }),
    summary: summaryLine(title, description),
    baseUrl: resolveBaseUrl(document, options),
  };
  if (title !== undefined) described.title = title;
  if (description !== undefined) described.description = description;
  if (version !== undefined) described.version = version;
  if (options.sourceLabel !== undefined) described.sourceLabel = options.sourceLabel;
  return described;
}

/**
 * The plan's one-line description: "Title: first description line" when both exist and differ, else
 * whichever exists; at most 300 characters.
 */
export function summaryLine(title: string | undefined, description: string | undefined): string {
  const firstLine = description?.split("\n").map((line) => line.trim()).find((line) => line !== "");
  let line = title ?? firstLine ?? "";
  if (title !== undefined && firstLine !== undefined && firstLine !== title) line = `${title}: ${firstLine}`;
  return line.length > SUMMARY_MAX ? `${line.slice(0, SUMMARY_MAX - 1).trimEnd()}…` : line;
}

/**
 * The base URL: `options.baseUrl` (trailing "/" stripped) → `servers[0].url` with variables replaced
 * by their defaults and a relative URL resolved against the spec URL → Swagger 2 `schemes[0]`
 * (default https) + `host` + `basePath` → the spec URL's origin (+ Swagger 2 `basePath`) when there
 * is no servers block → "". Throws {@link McpcastError} for a server variable without a default.
 */
export function resolveBaseUrl(
  document: SpecMapping,
  options: { baseUrl?: string; specUrl?: string } = {},
): string {
  if (options.baseUrl !== undefined && options.baseUrl.trim() !== "") {
    return stripSlash(options.baseUrl.trim());
  }
  const fromServers = serverUrl(document.servers, { specUrl: options.specUrl, where: "servers[0]" });
  if (fromServers !== undefined) return fromServers;
  const basePath = typeof document.basePath === "string" ? document.basePath.trim() : "";
  const host = typeof document.host === "string" ? document.host.trim() : "";
  if (host !== "") {
    const schemes = Array.isArray(document.schemes) ? document.schemes : [];
    const scheme = typeof schemes[0] === "string" ? schemes[0].toLowerCase() : "https";
    return stripSlash(
      `${scheme}://${host}${basePath.startsWith("/") || basePath === "" ? "" : "/"}${basePath}`,
    );
  }
  const hasServers = Array.isArray(document.servers) && document.servers.length > 0;
  if (options.specUrl !== undefined && !hasServers) {
    try {
      return stripSlash(new URL(options.specUrl).origin + (basePath.startsWith("/") ? basePath : ""));
    } catch {
      return "";
    }
  }
  return "";
}

/**
 * The URL of the first entry of a `servers` list, variables replaced by their defaults and a
 * relative URL resolved against `specUrl` (when known); `undefined` when the list has no usable entry.
 * Throws {@link McpcastError} naming `where` for a variable without a default.
 */
export function serverUrl(
  servers: unknown,
  options: { specUrl?: string; where: string },
): string | undefined {
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const first = servers[0];
  if (!isMapping(first) || typeof first.url !== "string" || first.url.trim() === "") return undefined;
  const variables = isMapping(first.variables) ? first.variables : {};
  const url = first.url.trim().replace(/\{([^}]*)\}/g, (_match, name: string) => {
    const variable = variables[name];
    const fallback = isMapping(variable) ? variable.default : undefined;
    if (typeof fallback === "string" || typeof fallback === "number") return String(fallback);
    throw new McpcastError(
      `server variable '${name}' in ${options.where} has no default; pass --base-url to choose the server`,
    );
  });
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || options.specUrl === undefined) return stripSlash(url);
  try {
    return stripSlash(new URL(url, options.specUrl).href);
  } catch {
    return stripSlash(url);
  }
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

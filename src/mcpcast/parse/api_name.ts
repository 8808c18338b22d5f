/**
 * The default API name of a spec (the plan's `api.name`, the project folder `<name>-mcp`, the server's
 * name): short, lower case, and the same for the same spec whatever base URL the user passes.
 *
 * @module
 */

import { isMapping, type SpecMapping } from "../_spec_values.ts";

const FILLER_WORDS: ReadonlySet<string> = new Set([
  "api",
  "apis",
  "openapi",
  "swagger",
  "spec",
  "specification",
  "rest",
  "json",
]);
const NAME_MAX = 63;
/** A title slug of at most this many words and characters is the name as it is. */
const SHORT_WORDS = 3;
const SHORT_LENGTH = 30;
/** Second-level labels that come before a country code (`api.example.co.uk` is `example`). */
const SECOND_LEVEL: ReadonlySet<string> = new Set(["co", "com", "org", "net", "ac", "gov", "edu"]);
/** Domains that name the host of many APIs, not one API. */
const SHARED_DOMAINS: ReadonlySet<string> = new Set([
  "example",
  "amazonaws",
  "azurewebsites",
  "herokuapp",
  "appspot",
  "vercel",
  "netlify",
  "localhost",
]);

/**
 * A slug for `text`: lower case, a possessive "'s" dropped, runs of other characters → "-", filler
 * words (api, openapi, swagger, rest, ...) and version tokens (`v2`, `3`) dropped, at most 63
 * characters; "" when nothing is left.
 *
 * @example
 * ```ts
 * apiNameSlug("Swagger Petstore - OpenAPI 3.0"); // "petstore"
 * ```
 */
export function apiNameSlug(text: string): string {
  const ascii = text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/['\u2019]s\b/g, "").replace(/['\u2019]/g, "");
  const tokens = ascii.split(/[^a-z0-9]+/).filter((token) =>
    token !== "" && !FILLER_WORDS.has(token) && !/^v?\d+$/.test(token)
  );
  return tokens.join("-").slice(0, NAME_MAX).replace(/-+$/, "");
}

/**
 * The name a host gives an API: the domain under its public suffix (`api.github.com` → `github`,
 * `api.example.co.uk` → `example`); `undefined` for an IP address, a single label, or a domain shared
 * by many APIs (`amazonaws`, `example`, ...).
 */
export function hostApiName(hostname: string): string | undefined {
  const labels = hostname.toLowerCase().replace(/\.$/, "").split(".");
  if (labels.length < 2 || labels.some((label) => !/^[a-z0-9-]+$/.test(label))) return undefined;
  if (labels.every((label) => /^\d+$/.test(label))) return undefined;
  labels.pop();
  if (labels.length > 1 && SECOND_LEVEL.has(labels.at(-1)!)) labels.pop();
  const domain = labels.at(-1)!;
  if (SHARED_DOMAINS.has(domain)) return undefined;
  return apiNameSlug(domain) || undefined;
}

/** The host the spec itself names: `servers[0].url` (OpenAPI 3) or `host` (Swagger 2). */
export function specHost(document: SpecMapping): string | undefined {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const first = servers[0];
  const raw = isMapping(first) && typeof first.url === "string"
    ? first.url.trim()
    : typeof document.host === "string"
    ? `https://${document.host.trim()}`
    : "";
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? URL.parse(raw) : null;
  return url === null || url.hostname === "" ? undefined : url.hostname;
}

/** Where {@linkcode apiNameFor} may look past the title. */
export interface ApiNameSources {
  /** The host the spec names (see {@linkcode specHost}); never a base URL the user passed. */
  host?: string;
  /** Public form of the source (path or URL, `"<inline>"` for text). */
  sourceLabel?: string;
}

/**
 * The API name: the title's slug when short (at most 3 words and 30 characters: `train-travel`),
 * else the name of the spec's own host (`api.github.com` → `github`), else the title's first 3
 * words, else the source file or URL stem's slug, else "api".
 *
 * @example
 * ```ts
 * apiNameFor("GitHub's official OpenAPI spec + Octokit extension", { host: "api.github.com" }); // "github"
 * ```
 */
export function apiNameFor(title: string | undefined, sources: ApiNameSources = {}): string {
  const fromTitle = title === undefined ? "" : apiNameSlug(title);
  const words = fromTitle === "" ? [] : fromTitle.split("-");
  if (words.length > 0 && words.length <= SHORT_WORDS && fromTitle.length <= SHORT_LENGTH) return fromTitle;
  const fromHost = sources.host === undefined ? undefined : hostApiName(sources.host);
  if (fromHost !== undefined) return fromHost;
  if (words.length > 0) {
    return words.slice(0, SHORT_WORDS).join("-").slice(0, SHORT_LENGTH).replace(/-+$/, "");
  }
  const { sourceLabel } = sources;
  if (sourceLabel === undefined || sourceLabel === "<inline>") return "api";
  const path = sourceLabel.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/[/\\]+$/, "");
  const base = path.split(/[/\\]/).pop() ?? "";
  const stem = base.replace(/\.(json|ya?ml)$/i, "");
  return apiNameSlug(stem) || "api";
}

/**
 * Which external references may be followed: http(s) documents only from an allowed host (exact
 * `host[:port]`, case-insensitive, redirects held to the same rule), files only beside a spec read
 * from a file and only under its directory. Reasons name a host or nothing, never credentials.
 *
 * @module
 */

import { isAbsolute, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { McpcastError } from "../errors.ts";
import { publicUrl } from "../_spec_url.ts";

/** Redirects followed when downloading one external document. */
const MAX_REDIRECTS = 5;

/** Whether `url` is on one of `allowHosts` (`host` or `host:port`, case-insensitive, default ports implied). */
export function hostAllowed(url: URL, allowHosts: readonly string[]): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const host = url.host.toLowerCase();
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  const withPort = `${url.hostname.toLowerCase()}:${port}`;
  return allowHosts.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    return wanted === host || wanted === withPort;
  });
}

/** What a reference is checked against. */
export interface RefPolicy {
  /** Hosts whose http(s) documents may be loaded. */
  allowHosts: readonly string[];
  /** Directory of the spec file; `undefined` when the spec is not a file (then no file is followed). */
  rootDir?: string;
}

/**
 * Why the reference `ref` (as written), pointing at `target`, may not be followed; `undefined` when it
 * may. Only what can be known without touching the file system is checked here.
 */
export function refusalOf(ref: string, target: URL, policy: RefPolicy): string | undefined {
  if (target.protocol === "http:" || target.protocol === "https:") {
    return hostAllowed(target, policy.allowHosts) ? undefined : `host ${target.host} is not an allowed host`;
  }
  if (target.protocol !== "file:") return `only http(s) and relative file references are followed`;
  if (policy.rootDir === undefined) return "file references are followed only for a spec read from a file";
  if (/^([a-z][a-z0-9+.-]*:|[\\/])/i.test(ref.trim())) return "absolute file references are not followed";
  return insideDir(policy.rootDir, fileURLToPath(target))
    ? undefined
    : "it points outside the spec's directory";
}

/** Whether `path` is `dir` or under it (compared as given: resolve symbolic links first to compare real places). */
export function insideDir(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== ".." && !rel.startsWith("../") && !rel.startsWith("..\\") && !isAbsolute(rel);
}

/**
 * A fetch that follows redirects itself and refuses one that leaves the allowed hosts; the
 * `Authorization` header is dropped when the origin changes.
 */
export function guardedFetch(base: typeof fetch, allowHosts: readonly string[]): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    const shown = publicUrl(url.href);
    const headers = new Headers(init?.headers);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await base(url.href, { ...init, headers, redirect: "manual" });
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      const next = new URL(location, url);
      if (!hostAllowed(next, allowHosts)) {
        throw new McpcastError(`could not download spec ${shown}: redirected to a host that is not allowed`);
      }
      if (next.origin !== url.origin) headers.delete("authorization");
      url = next;
    }
    throw new McpcastError(`could not download spec ${shown}: more than ${MAX_REDIRECTS} redirects`);
  };
}

/**
 * DNS-rebinding defence for the MCP routes: the Host header must name a loopback host or an allowed
 * host (421 otherwise), and an Origin header, when present, must be an http(s) origin of such a host or
 * an allowed origin (403 otherwise). Requests without Origin (non-browser clients) pass.
 *
 * @module
 */

import { hostHeaderName, isLoopbackHost } from "../../_util/net.ts";
import { json } from "./_http.ts";

interface HostEntry {
  name: string;
  port?: string;
}

function splitHost(value: string): HostEntry {
  const text = value.trim().toLowerCase();
  const name = hostHeaderName(text);
  const rest = text.slice(name.length);
  return rest.startsWith(":") && rest.length > 1 ? { name, port: rest.slice(1) } : { name };
}

function parseHostEntry(entry: unknown): HostEntry {
  if (typeof entry !== "string" || entry.trim() === "" || /[/\s@]/.test(entry.trim())) {
    throw new TypeError(`allowedHosts: '${String(entry)}' is not a host name (use 'name' or 'name:port')`);
  }
  return splitHost(entry);
}

function parseOrigin(entry: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof entry === "string" ? new URL(entry) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new TypeError(`allowedOrigins: '${String(entry)}' is not an http(s) origin`);
  }
  return url.origin;
}

/** Host and Origin rules for the MCP routes. */
export class HostPolicy {
  #hosts: HostEntry[];
  #origins: Set<string>;

  /** Loopback names plus `allowedHosts` (`name` any port, `name:port` that port) and `allowedOrigins`. */
  constructor(allowedHosts: readonly string[], allowedOrigins: readonly string[]) {
    if (!Array.isArray(allowedHosts)) throw new TypeError("allowedHosts must be a list of host names");
    if (!Array.isArray(allowedOrigins)) throw new TypeError("allowedOrigins must be a list of origins");
    this.#hosts = allowedHosts.map(parseHostEntry);
    this.#origins = new Set(allowedOrigins.map(parseOrigin));
  }

  /** The policy for logs: extra hosts and origins beyond loopback. */
  describe(): { allowedHosts: string[]; allowedOrigins: string[] } {
    return {
      allowedHosts: [
        "127.0.0.1",
        "localhost",
        "[::1]",
        ...this.#hosts.map((h) => h.port ? `${h.name}:${h.port}` : h.name),
      ],
      allowedOrigins: [...this.#origins],
    };
  }

  /** Answers for Host headers seen recently (a handful in practice). */
  #seen = new Map<string, boolean>();

  #hostAllowed(header: string): boolean {
    const known = this.#seen.get(header);
    if (known !== undefined) return known;
    const { name, port } = splitHost(header);
    const allowed = isLoopbackHost(name) ||
      this.#hosts.some((h) => h.name === name && (h.port === undefined || h.port === port));
    if (this.#seen.size >= 256) this.#seen.clear();
    this.#seen.set(header, allowed);
    return allowed;
  }

  #originAllowed(origin: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (this.#origins.has(url.origin)) return true;
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    const name = url.hostname.toLowerCase();
    return isLoopbackHost(name) || this.#hosts.some((h) => h.name === name);
  }

  /** The refusal for `request` (421 bad Host, 403 bad Origin), or undefined when it may pass. */
  check(request: Request): Response | undefined {
    const host = request.headers.get("host") ?? new URL(request.url).host;
    if (!this.#hostAllowed(host)) {
      return json(421, { error: "misdirected request", message: "Host not allowed" });
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !this.#originAllowed(origin)) {
      return json(403, { error: "forbidden", message: "Origin not allowed" });
    }
    return undefined;
  }
}

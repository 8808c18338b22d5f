/**
 * Loopback address helpers.
 *
 * @module
 */

/** Whether a bind host or Host-header name is a loopback name (127.0.0.0/8, localhost, ::1). */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name === "::1" || name.endsWith(".localhost")) return true;
  return /^127(\.\d{1,3}){3}$/.test(name);
}

/** The host part of a Host header (`name`, `name:port`, `[v6]:port`). */
export function hostHeaderName(header: string): string {
  const value = header.trim();
  if (value.startsWith("[")) {
    const end = value.indexOf("]");
    return end === -1 ? value : value.slice(0, end + 1);
  }
  const colon = value.lastIndexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

/** Whether an Origin header names a loopback site (`http(s)://loopback[:port]`). */
export function isLoopbackOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return isLoopbackHost(url.hostname);
}

/**
 * Sends an escalation (budget, health, mission) to its target's `webhook_url` as a JSON POST, with a
 * server-side request forgery policy: only http(s), no credentials in the URL; no loopback, private, link-local, shared or
 * unspecified address (the name is resolved first and every address checked) unless the target sets
 * `allow_private_network`; redirects are not followed; a timeout bounds the request. It never throws.
 *
 * @module
 */

import { describeError } from "../_util/errors.ts";
import type { EscalationTarget } from "./config/mod.ts";

/** Milliseconds an escalation POST may take. */
export const ESCALATION_TIMEOUT_MS = 10_000;

/** Options of {@linkcode sendEscalation}. */
export interface SendEscalationOptions {
  /** Milliseconds before the POST is abandoned. @default ESCALATION_TIMEOUT_MS */
  timeoutMs?: number;
  /** Resolves a host name to its addresses. @default Deno.resolveDns (A and AAAA) */
  resolve?: (host: string) => Promise<string[]>;
}

/** What became of an escalation. */
export interface EscalationOutcome {
  /** Whether the webhook answered 2xx. */
  sent: boolean;
  /** Its HTTP status, when it answered. */
  status?: number;
  /** Why it was not sent (refused by the policy, network error, timeout), in the runtime's words. */
  error?: string;
}

/** POSTs `payload` to `target.webhook_url` (see the module doc); `{sent: false}` without a webhook. */
export async function sendEscalation(
  target: EscalationTarget,
  payload: Record<string, unknown>,
  options: SendEscalationOptions = {},
): Promise<EscalationOutcome> {
  const raw = target.webhook_url;
  if (raw === undefined) return { sent: false, error: "no webhook_url" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { sent: false, error: "webhook_url is not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { sent: false, error: "webhook_url must be http(s)" };
  }
  if (url.username || url.password) return { sent: false, error: "webhook_url must not hold credentials" };
  if (target.allow_private_network !== true) {
    const refused = await privateAddress(url.hostname, options.resolve ?? resolveHost);
    if (refused) return { sent: false, error: refused };
  }
  const signal = AbortSignal.timeout(options.timeoutMs ?? ESCALATION_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
      redirect: "manual",
      signal,
    });
    await response.body?.cancel();
    const sent = response.status >= 200 && response.status < 300;
    return sent ? { sent, status: response.status } : {
      sent,
      status: response.status,
      error: `the webhook answered ${response.status}`,
    };
  } catch (error) {
    return {
      sent: false,
      error: signal.aborted ? "the webhook timed out" : `network error: ${describeError(error)}`,
    };
  }
}

/** Why `host` may not be reached (a private address), or undefined when every address is public. */
async function privateAddress(
  host: string,
  resolve: (host: string) => Promise<string[]>,
): Promise<string | undefined> {
  const name = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (name === "localhost" || name.endsWith(".localhost")) return "webhook_url names a loopback host";
  let addresses: string[];
  if (isIpLiteral(name)) addresses = [name];
  else {
    try {
      addresses = await resolve(name);
    } catch {
      return "webhook_url host does not resolve";
    }
    if (addresses.length === 0) return "webhook_url host does not resolve";
  }
  return addresses.some(isPrivateAddress)
    ? "webhook_url resolves to a private or loopback address"
    : undefined;
}

async function resolveHost(host: string): Promise<string[]> {
  const settled = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
  return settled.flatMap((s) => s.status === "fulfilled" ? s.value : []);
}

function isIpLiteral(name: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.includes(":");
}

/**
 * Whether an IP address is loopback, private, link-local, shared (100.64/10), unspecified, multicast or
 * reserved (IPv4, IPv4-mapped IPv6 and IPv6 unique-local / link-local).
 */
export function isPrivateAddress(address: string): boolean {
  const name = address.toLowerCase();
  const mapped = /^(?:::ffff:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(name);
  if (mapped) return isPrivateAddress(mapped[1]);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (!name.includes(":")) return true; // not an address we understand: refuse
  if (name === "::" || name === "::1") return true;
  if (name.startsWith("::ffff:")) return true; // mapped in hex form
  const first = parseInt(name.split(":")[0] || "0", 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
}

/**
 * Sends an escalation to an {@linkcode EscalationTarget}: POSTs it as JSON to `webhook_url` and hands it
 * to an event emitter for `event_type`.
 *
 * Webhook policy (SSRF): http(s) only; no credentials in the URL; the host is resolved at every
 * escalation and every address it resolves to must be public (no loopback, private, link-local,
 * carrier-grade NAT, multicast or reserved address), else nothing is sent; redirects are not followed
 * (a 3xx answer counts as a failed delivery); 10 s timeout; the answer body is discarded. The request
 * goes to the host by name after the check, so a DNS answer that changes between the check and the
 * connection (rebinding) is a residual risk; the short window is the only guard.
 *
 * @module
 */

import type { EscalationTarget } from "../config/escalation_target.ts";
import { describeError } from "../../_util/errors.ts";
import { isIpLiteral, isPublicAddress } from "./_public_address.ts";

/** Milliseconds an escalation POST may take. */
export const ESCALATION_TIMEOUT_MS = 10_000;

/** What happened to one escalation. */
export interface EscalationOutcome {
  /** `delivered` (2xx), `refused` (policy), `failed` (network, timeout, non-2xx) or `none` (no webhook). */
  webhook: "delivered" | "refused" | "failed" | "none";
  /** Why it was refused or failed (never the answer body). */
  reason?: string;
  /** `emitted`, `no_event_bus` (no emitter was given) or `none` (no event type). */
  event: "emitted" | "no_event_bus" | "none";
}

/** Options of {@linkcode sendEscalation}. */
export interface EscalationOptions {
  /** Emits `payload` as an event of `event_type`, when the runtime has an event bus. */
  emit?: (eventType: string, payload: Record<string, unknown>) => void;
  /** Aborts the POST. */
  signal?: AbortSignal;
}

/** Sends `payload` to `target` (webhook per the module's policy, event when an emitter is given). */
export async function sendEscalation(
  target: EscalationTarget,
  payload: Record<string, unknown>,
  options: EscalationOptions = {},
): Promise<EscalationOutcome> {
  let event: EscalationOutcome["event"] = "none";
  if (target.event_type !== undefined) {
    event = options.emit ? "emitted" : "no_event_bus";
    options.emit?.(target.event_type, payload);
  }
  if (target.webhook_url === undefined) return { webhook: "none", event };
  const refusal = await checkWebhookUrl(target.webhook_url);
  if (refusal) return { webhook: "refused", reason: refusal, event };
  const timeout = AbortSignal.timeout(ESCALATION_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const answer = await fetch(target.webhook_url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
      redirect: "manual",
      signal,
    });
    await answer.body?.cancel();
    if (answer.status >= 200 && answer.status < 300) return { webhook: "delivered", event };
    return { webhook: "failed", reason: `HTTP ${answer.status}`, event };
  } catch (error) {
    return { webhook: "failed", reason: describeError(error).slice(0, 200), event };
  }
}

/** Why `url` may not be POSTed to, or undefined when it may (the host resolves to public addresses only). */
export async function checkWebhookUrl(url: string): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "not an http(s) URL";
  if (parsed.username || parsed.password) return "credentials in the URL";
  const host = parsed.hostname;
  if (isIpLiteral(host)) return isPublicAddress(host) ? undefined : "the address is not public";
  if (host === "localhost" || host.endsWith(".localhost")) return "the address is not public";
  const addresses = await resolveAll(host);
  if (addresses.length === 0) return "the host does not resolve";
  return addresses.every(isPublicAddress) ? undefined : "the host resolves to an address that is not public";
}

async function resolveAll(host: string): Promise<string[]> {
  const lookups = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
  return lookups.flatMap((lookup) => lookup.status === "fulfilled" ? lookup.value : []);
}

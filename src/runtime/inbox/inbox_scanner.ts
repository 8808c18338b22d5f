/**
 * Which scanner checks inbox messages (spec 000, "Messages and inbox" rule 8), in order:
 *
 * 1. `inbox.scan_with_guardrails: false`: none, and no warning (`off`);
 * 2. `ProcessConfig.guardrails` (a scanner object, or our declarative guardrails): from deploy on (`guardrails`);
 * 3. else, with `trigger_delivery.scan_payloads`, the trigger payload scanner (the built-in injection
 *    scanner), loaded at process start; messages held before are scanned then (`payload`);
 * 4. else none: messages are accepted unscanned and one warning is logged (`none`).
 *
 * Every scanner reads the text in overlapping 500-character windows.
 *
 * @module
 */

import { createInjectionScanner, createScanner, type TextScanner } from "../../guardrails/mod.ts";
import type { ProcessConfig } from "../config/mod.ts";

/** Where the inbox's scanner comes from. */
export type InboxScanMode = "guardrails" | "payload" | "none" | "off";

/** The scan mode of a config. */
export function inboxScanMode(config: ProcessConfig): InboxScanMode {
  if (!config.inbox.scan_with_guardrails) return "off";
  if (config.guardrails) return "guardrails";
  return config.trigger_delivery.scan_payloads ? "payload" : "none";
}

/** The scanner of a mode (`payload` only when `started`): undefined for `none` and `off`. */
export function inboxScanner(config: ProcessConfig, mode: InboxScanMode): TextScanner | undefined {
  if (mode === "guardrails" && config.guardrails) return createScanner(config.guardrails);
  if (mode === "payload") return createInjectionScanner();
  return undefined;
}

/**
 * What a {@linkcode ServerLink} is configured with and reports, and the error of a connect whose tool
 * listing failed.
 *
 * @module
 */

import type { Logger } from "../../log.ts";

/** One server's state (see `McpServerStatus`). */
export interface LinkStatus {
  connected: boolean;
  tools: number;
  transport: string;
  protocol_version: string | null;
  reconnects: number;
}

/** Settings of a `ServerLink`, defaults filled. */
export interface LinkSettings {
  logger: Logger;
  connectTimeoutMs: number;
  callTimeoutMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  clientInfo: { name: string; version: string };
  /** Called after this server's tool list was replaced. */
  toolsReplaced(): void;
}

/** The longest wait for the server's answer when checking whether it is still there. */
export const PROBE_MS = 5_000;

/** Listing the tools failed after the connect succeeded. */
export class ListingFailed extends Error {
  /** Wraps the listing's failure. */
  constructor(cause: unknown) {
    super("listing the tools failed", { cause });
    this.name = "ListingFailed";
  }
}

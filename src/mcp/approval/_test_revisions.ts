/**
 * Test helpers for approvals over both protocol revisions on a real socket: a bank server (audit to a
 * file, API-key auth, an approval gate, a gated `transfer` tool) served on 127.0.0.1, 2025-era SDK v1
 * clients and 2026-07-28 SDK v2 clients, and the audit file's entries.
 *
 * @module
 */

import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from "@modelcontextprotocol/client";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { type AuditEntry, auditMiddleware } from "../audit/audit_middleware.ts";
import { type Served, serveOnLoopback } from "../transports/_test_serve.ts";
import { toFetchHandler } from "../transports/to_fetch_handler.ts";
import type { Approver } from "./approver.ts";
import { approvalGate } from "./approval_gate.ts";
import { gatedServerWith } from "./_test_setup.ts";
import type { PendingApprover } from "./pending_approver.ts";
import type { Middleware } from "../types.ts";

/** The key the bank's audit chain is signed with. */
export const AUDIT_SECRET = "approval-revisions-audit-secret";

/** A bank served on 127.0.0.1, with its audit file. */
export interface Bank extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** The audit file. */
  auditPath: string;
  /** The entries written to the audit file so far. */
  entries(): Promise<AuditEntry[]>;
  /** 2025-era sessions open (a 2026-07-28 client opens none). */
  sessions(): number;
}

/** Options for {@linkcode serveBank}. */
export interface BankOptions {
  /** Registers this queue's reviewer tools. */
  queue?: PendingApprover;
  /** Middleware between auth and the gate. */
  middleware?: Middleware[];
  /** Serve 2025-era HTTP without sessions. */
  stateless?: boolean;
}

/** Serves a bank whose gate asks `approver`. */
export async function serveBank(approver: Approver, options: BankOptions = {}): Promise<Bank> {
  const { queue, middleware = [], stateless = false } = options;
  const dir = await Deno.makeTempDir({ prefix: "agentry_approval_" });
  const auditPath = `${dir}/audit.jsonl`;
  const audit = auditMiddleware({ logPath: auditPath, hmacSecret: AUDIT_SECRET });
  const server = gatedServerWith([...middleware, approvalGate(approver, { timeout: 20 })], [audit]);
  queue?.register(server);
  const handler = toFetchHandler(server, { stateless });
  let served: Served;
  try {
    served = await serveOnLoopback(handler);
  } catch (error) {
    await audit.close();
    await Deno.remove(dir, { recursive: true });
    throw error;
  }
  return {
    url: new URL(`${served.base}/mcp`),
    auditPath,
    sessions: () => handler.sessionCount,
    async entries() {
      const text = await Deno.readTextFile(auditPath);
      return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as AuditEntry);
    },
    async [Symbol.asyncDispose]() {
      await served[Symbol.asyncDispose]();
      await audit.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** What a test client is: who it is and how its user answers elicitations (none: no capability). */
export interface ClientOptions {
  /** The API key sent with every request. */
  apiKey: string;
  /** Declares elicitation and answers with this. */
  onElicit?: (message: string) => ElicitResult;
}

/** A connected client of either revision. */
export interface BankClient extends AsyncDisposable {
  /** Calls a tool; aborting `signal` cancels the call. */
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<CallToolResult>;
}

/** A 2025-era SDK v1 client over streamable HTTP (a session). */
export async function legacyClient(bank: Bank, options: ClientOptions): Promise<BankClient> {
  const client = new LegacyClient({ name: "legacy-bank", version: "1.0.0" }, {
    capabilities: options.onElicit ? { elicitation: {} } : {},
  });
  const answer = options.onElicit;
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  await client.connect(
    new LegacyHttp(bank.url, { requestInit: { headers: { "x-api-key": options.apiKey } } }),
  );
  return {
    call: async (name, args = {}, { signal } = {}) =>
      await client.callTool({ name, arguments: args }, undefined, { signal }) as CallToolResult,
    [Symbol.asyncDispose]: () => client.close(),
  };
}

/** A 2026-07-28 SDK v2 client (pinned: no session, every request stateless). */
export async function modernClient(bank: Bank, options: ClientOptions): Promise<BankClient> {
  const client = new ModernClient({ name: "modern-bank", version: "1.0.0" }, {
    capabilities: options.onElicit ? { elicitation: {} } : {},
    versionNegotiation: { mode: { pin: "2026-07-28" } },
  });
  const answer = options.onElicit;
  if (answer) {
    client.setRequestHandler("elicitation/create", (request) => answer(String(request.params.message)));
  }
  await client.connect(
    new ModernHttp(bank.url, { requestInit: { headers: { "x-api-key": options.apiKey } } }),
  );
  return {
    call: async (name, args = {}, { signal } = {}) =>
      await client.callTool({ name, arguments: args }, { signal }) as CallToolResult,
    [Symbol.asyncDispose]: () => client.close(),
  };
}

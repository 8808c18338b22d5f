/**
 * Test helper: a request context for a tool definition, with a recording session.
 *
 * @module
 */

import { Logger, memorySink } from "../log.ts";
import type { LogRecord } from "../log.ts";
import { compileInput } from "./input_schema.ts";
import type { ToolDefinition } from "./definitions.ts";
import { RequestContext } from "./request_context.ts";
import type { CallSession } from "./types.ts";

/** Overrides for {@linkcode testTool}. */
export type TestToolInit = Partial<Omit<ToolDefinition, "kind">>;

/** A tool definition with defaults for tests. */
export function testTool(init: TestToolInit = {}): ToolDefinition {
  return {
    kind: "tool",
    name: "echo",
    tags: [],
    auth: false,
    roles: [],
    guards: [],
    middleware: [],
    requiresApproval: false,
    cache: true,
    input: compileInput(undefined),
    handler: () => "ok",
    ...init,
  };
}

/** Options for {@linkcode testContext}. */
export interface TestContextOptions {
  /** Definition served. @default testTool() */
  tool?: ToolDefinition;
  /** Lower-cased headers. */
  meta?: Record<string, string>;
  /** Validated arguments. */
  args?: Record<string, unknown>;
  /** Request id. @default "req-1" */
  requestId?: string;
  /** Session. @default a non-live session that records nothing */
  session?: CallSession;
  /** Abort signal. */
  signal?: AbortSignal;
  /** Caller IP address. */
  ipAddress?: string;
}

/** A non-live session: progress and logs do nothing, elicitation, sampling and roots throw. */
export const DEAD_SESSION: CallSession = {
  era: "legacy",
  live: false,
  supports: () => false,
  progress: () => Promise.resolve(),
  log: () => Promise.resolve(),
  elicit: () => Promise.reject(new Error("no live session")),
  sample: () => Promise.reject(new Error("no live session")),
  listRoots: () => Promise.reject(new Error("no live session")),
};

/** A context plus the log records its logger wrote. */
export function testContext(options: TestContextOptions = {}): { ctx: RequestContext; logs: LogRecord[] } {
  const sink = memorySink();
  const ctx = new RequestContext({
    serverName: "test-server",
    definition: options.tool ?? testTool(),
    requestType: "tool",
    requestId: options.requestId ?? "req-1",
    meta: options.meta ?? {},
    arguments: options.args ?? {},
    session: options.session ?? DEAD_SESSION,
    signal: options.signal ?? new AbortController().signal,
    ipAddress: options.ipAddress,
    logger: new Logger("agentry.mcp", { level: "debug", sink }),
  });
  return { ctx, logs: sink.records };
}

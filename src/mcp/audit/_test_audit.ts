/**
 * Test helpers for the audit log: temporary directories, logs written through the middleware, and
 * line-level edits.
 *
 * @module
 */

import { Logger, memorySink } from "../../log.ts";
import type { LogRecord } from "../../log.ts";
import { testContext } from "../_test_context.ts";
import { auditMiddleware, type AuditMiddlewareOptions } from "./audit_middleware.ts";

/** The key the helpers sign with. */
export const SECRET = "test-secret";

/** A temporary directory removed on `await using` disposal. */
export async function tempDir(): Promise<AsyncDisposable & { path: string }> {
  const path = await Deno.makeTempDir({ prefix: "agentry_audit_" });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

/** A logger whose records are kept. */
export function recordingLogger(): { logger: Logger; records: LogRecord[] } {
  const sink = memorySink();
  return { logger: new Logger("test.audit", { level: "debug", sink }), records: sink.records };
}

let written = 0;

/** Appends `count` entries to `path` through a fresh middleware (then closes it); request ids never repeat. */
export async function writeLog(
  path: string,
  count: number,
  options: AuditMiddlewareOptions = {},
): Promise<LogRecord[]> {
  const { logger, records } = recordingLogger();
  const audit = auditMiddleware({ logPath: path, hmacSecret: SECRET, logger, ...options });
  for (let i = 0; i < count; i++) {
    const { ctx } = testContext({ requestId: `req-${written++}` });
    await audit(ctx, () => Promise.resolve(`result ${i}`));
  }
  await audit.close();
  return records;
}

/** The lines of a file (without the final newline). */
export async function readLines(path: string): Promise<string[]> {
  const text = await Deno.readTextFile(path);
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

/** Replaces a file with `lines`, each ending with a newline unless `terminated` is false. */
export async function saveLines(path: string, lines: string[], terminated = true): Promise<void> {
  await Deno.writeTextFile(path, lines.join("\n") + (terminated ? "\n" : ""));
}

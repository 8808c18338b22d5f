import assert from "node:assert/strict";
import { join } from "node:path";
import FakeTimers from "@sinonjs/fake-timers";
import { ClientContext } from "../client_context.ts";
import { ToolError } from "../errors.ts";
import { InputRequiredSignal } from "../input_required.ts";
import { noteApproval } from "../approval/approval_record.ts";
import { RequestContext } from "../request_context.ts";
import { DEAD_SESSION, testContext } from "../_test_context.ts";
import { entryVerifies, GENESIS_HASH, hmacKey } from "./_audit_crypto.ts";
import { readLines, recordingLogger, SECRET, tempDir, writeLog } from "./_test_audit.ts";
import { auditMiddleware } from "./audit_middleware.ts";
import { verifyAuditLog } from "./audit_verify.ts";

const parse = (line: string) => JSON.parse(line) as Record<string, unknown>;

Deno.test("audit writes one signed line per call, chained from the genesis hash", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  const clock = FakeTimers.install({ toFake: ["Date", "performance"], now: 1_700_000_000_000 });
  const audit = auditMiddleware({ logPath: path, hmacSecret: SECRET });
  try {
    const { ctx } = testContext({ requestId: "abc" });
    await audit(ctx, () => {
      clock.tick(1234.56);
      return Promise.resolve("done");
    });
    await audit(testContext().ctx, () => Promise.resolve("again"));
  } finally {
    clock.uninstall();
    await audit.close();
  }
  const [first, second] = (await readLines(path)).map(parse);
  assert.deepEqual(Object.keys(first).sort(), [
    "client_id",
    "duration_s",
    "hmac",
    "prev_hash",
    "request_id",
    "seq",
    "status",
    "timestamp",
    "tool",
  ]);
  assert.equal(first.seq, 0);
  assert.equal(first.prev_hash, GENESIS_HASH);
  assert.equal(first.timestamp, 1_700_000_000);
  assert.equal(first.duration_s, 1.2346);
  assert.equal(first.tool, "echo");
  assert.equal(first.request_id, "abc");
  assert.equal(first.client_id, null);
  assert.equal(first.status, "ok");
  assert.equal(second.seq, 1);
  assert.equal(second.prev_hash, first.hmac);
  const key = await hmacKey(SECRET);
  assert.ok(await entryVerifies(key, first));
  assert.ok(await entryVerifies(key, second));
  assert.ok(!(await entryVerifies(await hmacKey("other"), first)));
  assert.deepEqual(audit.entries().map((entry) => entry.hmac), [first.hmac, second.hmac]);
  if (Deno.build.os !== "windows") assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
});

Deno.test("audit continues the chain after a restart and marks the first new entry resumed", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 2);
  await writeLog(path, 2);
  const entries = (await readLines(path)).map(parse);
  assert.deepEqual(entries.map((entry) => entry.seq), [0, 1, 2, 3]);
  assert.equal(entries[2].prev_hash, entries[1].hmac);
  assert.deepEqual(entries.map((entry) => entry.resumed), [undefined, undefined, true, undefined]);
  const report = await verifyAuditLog(path, { keys: [SECRET] });
  assert.equal(report.ok, true);
  assert.equal(report.continuous, true);
  assert.equal(report.restarts, 1);
  assert.equal(report.lastSeq, 3);
  assert.equal(report.lastHash, entries[3].hmac);
});

Deno.test("audit closes a crash's unterminated last line before writing the next entry", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 2);
  await Deno.writeTextFile(path, '{"seq":2,"tool":"ec', { append: true });
  const records = await writeLog(path, 1);
  assert.ok(records.some((record) => /partial line/.test(record.message)));
  const lines = await readLines(path);
  assert.equal(lines.length, 4);
  const resumed = parse(lines[3]);
  assert.equal(resumed.seq, 2);
  assert.equal(resumed.resumed, true);
  assert.equal(resumed.prev_hash, parse(lines[1]).hmac);
  const report = await verifyAuditLog(path, { keys: [SECRET] });
  assert.equal(report.ok, true);
  assert.deepEqual(report.warnings.map((warning) => [warning.kind, warning.line]), [["crash_fragment", 3]]);
});

Deno.test("audit starts a new chain after a non-signed last line", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 2);
  await Deno.writeTextFile(path, '{"seq":2,"tool":"echo"}\n', { append: true });
  const records = await writeLog(path, 1);
  assert.ok(records.some((record) => /new chain/.test(record.message)));
  const last = parse((await readLines(path)).at(-1)!);
  assert.equal(last.seq, 0);
  assert.equal(last.prev_hash, GENESIS_HASH);
  assert.equal(last.resumed, undefined);
  const report = await verifyAuditLog(path, { keys: [SECRET] });
  assert.deepEqual(report.problems.map((problem) => problem.kind), ["unsigned"]);
  assert.deepEqual(report.warnings.map((warning) => warning.kind), ["chain_reset"]);
  assert.equal(report.continuous, false);
});

Deno.test("audit warns when the log it continues ends with an entry signed by another key", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  await writeLog(path, 2, { hmacSecret: "old-key" });
  const records = await writeLog(path, 1);
  assert.ok(records.some((record) => record.level === "warning" && /another key/.test(record.message)));
  assert.equal((await verifyAuditLog(path, { keys: [SECRET, "old-key"] })).ok, true);
  const oneKey = await verifyAuditLog(path, { keys: [SECRET] });
  assert.deepEqual(oneKey.problems.map((problem) => [problem.kind, problem.count]), [["wrong_key", 2]]);
});

Deno.test("audit records errors with their code and text, and rethrows them", async () => {
  const audit = auditMiddleware({ logger: recordingLogger().logger });
  const denied = new ToolError("ACCESS_DENIED", "Not for you");
  await assert.rejects(audit(testContext().ctx, () => Promise.reject(denied)), (error) => error === denied);
  const boom = new TypeError("boom");
  await assert.rejects(audit(testContext().ctx, () => Promise.reject(boom)), (error) => error === boom);
  const [first, second] = audit.entries();
  assert.equal(first.status, "error");
  assert.equal(first.error, "ACCESS_DENIED: Not for you");
  assert.equal(first.error_code, "ACCESS_DENIED");
  assert.equal(second.error, "TypeError: boom");
  assert.equal(second.error_code, "INTERNAL_ERROR");
  await audit.close();
});

Deno.test("audit leaves out args and result unless asked, and cuts results at 1000 characters", async () => {
  const run = async (options: { includeArgs?: boolean; includeResult?: boolean }, result: unknown) => {
    const audit = auditMiddleware({ ...options, hmacSecret: SECRET });
    await audit(
      testContext({ args: { city: "Oslo", when: new Date(0) } }).ctx,
      () => Promise.resolve(result),
    );
    await audit.close();
    return audit.entries()[0];
  };
  const plain = await run({}, "x");
  assert.ok(!("args" in plain) && !("result" in plain));
  const full = await run({ includeArgs: true, includeResult: true }, {
    content: [{ type: "text", text: "hi" }],
  });
  assert.deepEqual(full.args, { city: "Oslo", when: "1970-01-01T00:00:00.000Z" });
  assert.equal(full.result, '{"content":[{"text":"hi","type":"text"}]}');
  assert.equal((await run({ includeResult: true }, "y".repeat(1500))).result, "y".repeat(1000));
  assert.ok(!("args" in await run({ includeResult: true }, "z")));
});

Deno.test("audit records the caller's identity without token or claims, and the kind of non-tool requests", async () => {
  const audit = auditMiddleware({ hmacSecret: SECRET });
  const ctx = new RequestContext({
    serverName: "s",
    definition: testContext().ctx.definition,
    requestType: "resource",
    resourceUri: "docs://readme",
    requestId: "r1",
    meta: { authorization: "Bearer secret-token" },
    arguments: {},
    session: DEAD_SESSION,
    signal: new AbortController().signal,
    logger: recordingLogger().logger,
  });
  await audit(ctx, () => {
    ctx.clientId = "alice";
    ctx.client = new ClientContext({
      clientId: "alice",
      subject: "user-1",
      issuer: "https://issuer",
      audience: "api",
      tenantId: "acme",
      roles: ["writer", "admin"],
      claims: { sub: "user-1", secret: "claim" },
    });
    return Promise.resolve("ok");
  });
  await audit.close();
  const entry = audit.entries()[0];
  assert.equal(entry.client_id, "alice");
  assert.equal(entry.request_type, "resource");
  assert.equal(entry.uri, "docs://readme");
  assert.deepEqual(entry.identity, {
    subject: "user-1",
    issuer: "https://issuer",
    audience: "api",
    tenant_id: "acme",
    roles: ["admin", "writer"],
  });
  assert.doesNotMatch(JSON.stringify(entry), /secret-token|claim/);
});

/** A signed file audit whose log is recorded, and the real `writeSync` (tests replace it). */
function loggedFileAudit(dir: string) {
  const path = join(dir, "audit.jsonl");
  const { logger, records } = recordingLogger();
  const audit = auditMiddleware({ logPath: path, hmacSecret: SECRET, logger });
  return { path, records, audit, writeSync: Deno.FsFile.prototype.writeSync };
}

Deno.test("a failed write is logged and the chain stays at the previous entry", async () => {
  await using dir = await tempDir();
  const { path, records, audit, writeSync } = loggedFileAudit(dir.path);
  try {
    await audit(testContext().ctx, () => Promise.resolve(1));
    Deno.FsFile.prototype.writeSync = () => {
      throw new Deno.errors.PermissionDenied("disk says no");
    };
    assert.equal(await audit(testContext().ctx, () => Promise.resolve(2)), 2);
    Deno.FsFile.prototype.writeSync = writeSync;
    await audit(testContext().ctx, () => Promise.resolve(3));
  } finally {
    Deno.FsFile.prototype.writeSync = writeSync;
    await audit.close();
  }
  assert.ok(records.some((record) => record.level === "error" && /not written/.test(record.message)));
  const entries = (await readLines(path)).map(parse);
  assert.deepEqual(entries.map((entry) => entry.seq), [0, 1]);
  assert.equal(entries[1].prev_hash, entries[0].hmac);
  assert.equal(audit.entries().length, 2);
  assert.equal((await verifyAuditLog(path, { keys: [SECRET] })).ok, true);
});

Deno.test("audit keeps only the last maxMemoryEntries entries in memory", async () => {
  const audit = auditMiddleware({ hmacSecret: SECRET, maxMemoryEntries: 3 });
  for (let i = 0; i < 7; i++) await audit(testContext({ requestId: `r${i}` }).ctx, () => Promise.resolve(i));
  await audit.close();
  assert.deepEqual(audit.entries().map((entry) => [entry.seq, entry.request_id]), [[4, "r4"], [5, "r5"], [
    6,
    "r6",
  ]]);
  assert.ok(Object.isFrozen(audit.entries()[0]));
  const none = auditMiddleware({ hmacSecret: SECRET, maxMemoryEntries: 0 });
  await none(testContext().ctx, () => Promise.resolve(1));
  assert.deepEqual(none.entries(), []);
});

Deno.test("a signed log file without a key is refused; memory-only logging uses a random key and warns", () => {
  assert.throws(() => auditMiddleware({ logPath: "audit.jsonl", env: () => undefined }), {
    name: "TypeError",
    message: /needs a key/,
  });
  const { logger, records } = recordingLogger();
  auditMiddleware({ env: () => undefined, logger });
  assert.equal(records.filter((record) => record.level === "warning").length, 1);
  const read: string[] = [];
  auditMiddleware({ logPath: "audit.jsonl", env: (name) => (read.push(name), "from-env") });
  assert.deepEqual(read, ["AGENTRY_AUDIT_SECRET"]);
  auditMiddleware({ logPath: "audit.jsonl", signed: false, env: () => undefined });
  assert.throws(() => auditMiddleware({ logFile: "x" } as never), /unknown option 'logFile'/);
  assert.throws(() => auditMiddleware({ hmacSecret: SECRET, maxMemoryEntries: -1 }), TypeError);
});

Deno.test("concurrent calls get distinct positions in one intact chain", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  const audit = auditMiddleware({ logPath: path, hmacSecret: SECRET });
  await Promise.all(
    Array.from(
      { length: 20 },
      (_, i) => audit(testContext({ requestId: `r${i}` }).ctx, () => Promise.resolve(i)),
    ),
  );
  await audit.close();
  const report = await verifyAuditLog(path, { keys: [SECRET] });
  assert.equal(report.ok, true);
  assert.equal(report.entries, 20);
  assert.equal(report.lastSeq, 19);
});

Deno.test("unsigned logs carry seq only, and calls after close are refused", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  const audit = auditMiddleware({ logPath: path, signed: false, env: () => undefined });
  await audit(testContext().ctx, () => Promise.resolve(1));
  await audit.close();
  const entry = parse((await readLines(path))[0]);
  assert.equal(entry.seq, 0);
  assert.ok(!("hmac" in entry) && !("prev_hash" in entry));
  await assert.rejects(audit(testContext().ctx, () => Promise.resolve(2)), { code: "INTERNAL_ERROR" });
});

Deno.test("calls of one turn share one write, and each call's entry is in the file before its result is seen", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  const audit = auditMiddleware({ logPath: path, hmacSecret: SECRET });
  const writeSync = Deno.FsFile.prototype.writeSync;
  let writes = 0;
  try {
    await audit(testContext().ctx, () => Promise.resolve("first"));
    Deno.FsFile.prototype.writeSync = function (this: Deno.FsFile, bytes: Uint8Array) {
      writes++;
      return writeSync.call(this, bytes);
    };
    const seen = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) =>
          audit(testContext({ requestId: `r${i}` }).ctx, () => Promise.resolve(i)).then(() =>
            Deno.readTextFileSync(path).includes(`"request_id":"r${i}"`)
          ),
      ),
    );
    assert.deepEqual(seen, Array(10).fill(true));
    assert.equal(writes, 1);
  } finally {
    Deno.FsFile.prototype.writeSync = writeSync;
    await audit.close();
  }
  assert.equal((await verifyAuditLog(path, { keys: [SECRET] })).entries, 11);
});

Deno.test("when a shared write stops after some lines, those are kept and the chain goes on from the last one", async () => {
  await using dir = await tempDir();
  const { path, records, audit, writeSync } = loggedFileAudit(dir.path);
  try {
    await audit(testContext().ctx, () => Promise.resolve(0));
    Deno.FsFile.prototype.writeSync = function (this: Deno.FsFile, bytes: Uint8Array) {
      Deno.FsFile.prototype.writeSync = () => {
        throw new Deno.errors.PermissionDenied("disk full");
      };
      return writeSync.call(this, bytes.subarray(0, bytes.indexOf(10) + 1));
    };
    await Promise.all([1, 2, 3].map((i) => audit(testContext().ctx, () => Promise.resolve(i))));
    Deno.FsFile.prototype.writeSync = writeSync;
    await audit(testContext().ctx, () => Promise.resolve(4));
  } finally {
    Deno.FsFile.prototype.writeSync = writeSync;
    await audit.close();
  }
  assert.equal(records.filter((record) => /not written/.test(record.message)).length, 2);
  const entries = (await readLines(path)).map(parse);
  assert.deepEqual(entries.map((entry) => entry.seq), [0, 1, 2]);
  assert.equal(entries[2].prev_hash, entries[1].hmac);
  assert.equal(audit.entries().length, 3);
  assert.equal((await verifyAuditLog(path, { keys: [SECRET] })).ok, true);
});

Deno.test("a round that ends input_required is its own entry: status, pending keys, the approval, no answers", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "audit.jsonl");
  const audit = auditMiddleware({ logPath: path, hmacSecret: SECRET, includeArgs: true });
  const signal = new InputRequiredSignal(
    { e1: { method: "elicitation/create", params: { message: "Approve sending 5?" } } },
    { s1: { content: { text: "an earlier answer" } } },
  );
  const first = testContext({ requestId: "round-1", args: { amount: 5 } }).ctx;
  await assert.rejects(
    audit(first, () => {
      noteApproval(first, { request_id: "a".repeat(32), decision: "input_required" });
      return Promise.reject(signal);
    }),
    (e) => e === signal,
  );
  const second = testContext({ requestId: "round-2", args: { amount: 5 } }).ctx;
  await audit(second, () => {
    noteApproval(second, {
      request_id: "a".repeat(32),
      decision: "approved",
      reviewer_id: "elicitation:client-user",
    });
    return Promise.resolve("sent 5");
  });
  await audit.close();
  const text = await Deno.readTextFile(path);
  assert.doesNotMatch(text, /Approve sending|an earlier answer/, "neither the question nor any answer");
  const [asked, done] = (await readLines(path)).map(parse);
  assert.equal(asked.status, "input_required");
  assert.deepEqual(asked.pending, { e1: "elicitation/create" });
  assert.equal(asked.error, undefined);
  assert.equal(asked.error_code, undefined);
  assert.deepEqual(asked.approval, { request_id: "a".repeat(32), decision: "input_required" });
  assert.deepEqual(asked.args, { amount: 5 });
  assert.equal(done.status, "ok");
  assert.equal(done.pending, undefined);
  assert.deepEqual(done.approval, {
    request_id: "a".repeat(32),
    decision: "approved",
    reviewer_id: "elicitation:client-user",
  });
  const report = await verifyAuditLog(path, { keys: [SECRET] });
  assert.equal(report.ok, true, JSON.stringify(report.problems));
  assert.equal(report.entries, 2);
  const tampered = (await readLines(path)).map((line, i) =>
    i === 0 ? line.replace("input_required", "ok") : line
  );
  await Deno.writeTextFile(path, tampered.join("\n") + "\n");
  assert.equal((await verifyAuditLog(path, { keys: [SECRET] })).ok, false, "the new status is signed too");
});

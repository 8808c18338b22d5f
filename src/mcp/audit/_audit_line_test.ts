import assert from "node:assert/strict";
import { auditLine, type UnsignedEntry } from "./_audit_line.ts";
import { canonicalJson } from "./canonical_json.ts";

const BASE: UnsignedEntry = {
  seq: 7,
  timestamp: 1_700_000_000.123,
  tool: "echo",
  client_id: null,
  request_id: 'abc\u2028"def',
  status: "ok",
  duration_s: 0.0012,
};

Deno.test("an audit line is exactly the canonical JSON of the entry, whatever fields it has", () => {
  const entries: UnsignedEntry[] = [
    BASE,
    { ...BASE, prev_hash: "0".repeat(64), resumed: true, client_id: "ops" },
    { ...BASE, status: "error", error: "TIMEOUT: slow \u00e9", error_code: "TIMEOUT", seq: 0 },
    { ...BASE, request_type: "resource", uri: "file:///a b", args: { z: [1, { b: 2, a: null }], a: "x" } },
    { ...BASE, request_type: "prompt", result: "line\nbreak", duration_s: 1e-7, timestamp: 1e21 },
    {
      ...BASE,
      identity: {
        subject: "s",
        issuer: "https://i",
        audience: ["b", "a"],
        tenant_id: "t",
        roles: ["a", "b"],
      },
    },
    { ...BASE, identity: { subject: "s", issuer: null, audience: null, tenant_id: null, roles: [] } },
    { ...BASE, identity: { subject: "s", roles: ["r"] } as unknown as UnsignedEntry["identity"] },
    { ...BASE, duration_s: Number.NaN, client_id: undefined as unknown as null },
    {
      ...BASE,
      status: "input_required",
      pending: { s1: "sampling/createMessage", e1: "elicitation/create" },
      approval: { request_id: "f".repeat(32), decision: "input_required" },
      prev_hash: "1".repeat(64),
    },
    { ...BASE, approval: { request_id: "a", decision: "approved", reviewer_id: "bob" }, args: { n: 1 } },
  ];
  for (const entry of entries) assert.equal(auditLine(entry), canonicalJson(entry));
});

import assert from "node:assert/strict";
import { FORMAT_CHECKS, schemaProblem } from "./json_check.ts";

Deno.test("the common string formats accept well-formed values and refuse malformed ones", () => {
  const cases: Record<string, [string[], string[]]> = {
    uuid: [["123e4567-e89b-12d3-a456-426614174000"], ["123e4567-e89b-12d3-a456", "123"]],
    date: [["2024-02-29", "2026-01-15"], ["2023-02-29", "2026-13-01", "15/01/2026", "2026-1-5"]],
    time: [["09:30:00", "23:59:60Z", "09:30:00.5+02:00"], ["9:30", "24:00:00"]],
    "date-time": [
      ["2026-01-15T09:30:00Z", "2026-01-15 09:30:00.123+02:00", "2026-01-15t09:30:00-0500"],
      ["2026-01-15", "2026-01-15T09:30:00", "2026-02-30T00:00:00Z", "yesterday"],
    ],
    email: [["ada@example.com", "a.b+c@localhost"], ["ada", "ada@", "a b@example.com", "a@b..c"]],
    uri: [["https://example.com/x?y=1", "urn:isbn:0451450523"], ["example.com", "/relative", "http://a b"]],
    hostname: [["example.com", "a-b.example.com."], ["-bad.com", "a_b.com", ""]],
    ipv4: [["127.0.0.1"], ["256.0.0.1", "1.2.3"]],
    ipv6: [["::1", "2001:db8::8a2e:370:7334"], ["::g", "1.2.3.4"]],
  };
  for (const [format, [good, bad]] of Object.entries(cases)) {
    for (const text of good) assert.ok(FORMAT_CHECKS[format](text), `${format} accepts ${text}`);
    for (const text of bad) assert.ok(!FORMAT_CHECKS[format](text), `${format} refuses ${text}`);
  }
});

Deno.test("schemaProblem names the path and the rule, never the value; unknown formats pass", () => {
  const schema = { type: "object", properties: { ids: { type: "array", items: { format: "uuid" } } } };
  assert.deepEqual(schemaProblem(schema, { ids: ["secret-value"] }), {
    path: "/ids/0",
    message: 'must match format "uuid"',
  });
  assert.equal(schemaProblem(schema, { ids: ["123e4567-e89b-12d3-a456-426614174000"] }), undefined);
  assert.equal(schemaProblem({ type: "integer", format: "int32" }, 7), undefined);
  assert.equal(schemaProblem({ type: "integer" }, 4.5)?.message, "must be integer");
});

Deno.test("a schema the validator cannot compile checks nothing", () => {
  assert.equal(schemaProblem({ type: "string", pattern: "(" }, "x"), undefined);
});

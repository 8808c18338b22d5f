import assert from "node:assert/strict";
import { scanResult } from "./scan_result.ts";

Deno.test("scanResult sorts findings, drops duplicates and lists unique sorted categories", () => {
  const result = scanResult([
    { detector: "pii", category: "email", offset: 30 },
    { detector: "injection", category: "role_impersonation", offset: 4 },
    { detector: "pii", category: "email", offset: 30 },
    { detector: "credentials", category: "jwt", offset: 4 },
  ]);
  assert.deepEqual(result, {
    flagged: true,
    categories: ["email", "jwt", "role_impersonation"],
    findings: [
      { detector: "credentials", category: "jwt", offset: 4 },
      { detector: "injection", category: "role_impersonation", offset: 4 },
      { detector: "pii", category: "email", offset: 30 },
    ],
  });
  assert.deepEqual(scanResult([]), { flagged: false, categories: [], findings: [] });
});

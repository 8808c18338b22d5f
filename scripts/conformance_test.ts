import assert from "node:assert/strict";
import { selectSuites } from "./conformance.ts";

Deno.test("selectSuites runs all three suites by default and one or more when named", () => {
  assert.deepEqual(selectSuites([]), ["0.1.16", "2025-11-25", "2026-07-28"]);
  assert.deepEqual(selectSuites(["--", "--requirements", "2026-07-28"]), ["2026-07-28"]);
  assert.deepEqual(selectSuites(["--suite=0.1.16", "--suite", "2025-11-25", "--suite", "0.1.16"]), [
    "0.1.16",
    "2025-11-25",
  ]);
  assert.throws(() => selectSuites(["--suite", "2024-11-05"]), /--suite needs one of/);
  assert.throws(() => selectSuites(["--requirements"]), /--requirements needs one of/);
  assert.throws(() => selectSuites(["--scenario", "ping"]), /unknown argument '--scenario'/);
});

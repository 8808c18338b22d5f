import assert from "node:assert/strict";
import { join } from "node:path";
import {
  addCheckDetails,
  failureLines,
  parseSummary,
  scenarioOfDirectory,
  suitePassed,
  summaryLine,
  warningLines,
} from "./_conformance_report.ts";

/** The tail of a real `--requirements 2026-07-28` run (0.2.0-alpha.12), shortened. */
const OUTPUT_2026 = `Running requirements 2026-07-28 (4 scenarios) against http://127.0.0.1:1/mcp

=== Running scenario: caching ===
Results saved to out/server-caching-2026-11-26T22-13-30-252Z


=== SUMMARY ===
✗ server-stateless: 5 passed, 26 failed
✓ tools-list: 2 passed, 0 failed
✗ caching: 0 passed, 7 failed
✗ tasks-lifecycle: 0 passed, 9 failed
✓ tasks-status-notifications: 0 passed, 0 failed
✓ json-schema-2020-12: 7 passed, 0 failed

Total: 14 passed, 42 failed

Not scored for 2026-07-28: 3 scenario(s) run, 1 failing. These do not affect conformance.
  ✗ tasks-lifecycle (extension)
  ✓ tasks-status-notifications (extension)
  ✓ json-schema-2020-12 (pending)
`;

/** The tail of a 0.1.16 active-suite run: no requirement set, so nothing is "not scored". */
const OUTPUT_0116 = `=== SUMMARY ===
✓ server-initialize: 1 passed, 0 failed
✓ ping: 1 passed, 0 failed

Total: 2 passed, 0 failed
`;

Deno.test("parseSummary reads each scenario's counts and the not-scored reasons", () => {
  const scenarios = parseSummary(OUTPUT_2026);
  assert.deepEqual(scenarios.map((s) => [s.name, s.passed, s.failed, s.notScored]), [
    ["server-stateless", 5, 26, undefined],
    ["tools-list", 2, 0, undefined],
    ["caching", 0, 7, undefined],
    ["tasks-lifecycle", 0, 9, "extension"],
    ["tasks-status-notifications", 0, 0, "extension"],
    ["json-schema-2020-12", 7, 0, "pending"],
  ]);
  assert.deepEqual(parseSummary("no summary here\n✓ x: 1 passed, 0 failed"), []);
});

Deno.test("summaryLine counts scored and not-scored scenarios apart, and a not-scored failure fails", () => {
  const report = { suite: "2026-07-28", scenarios: parseSummary(OUTPUT_2026), exitCode: 1 };
  assert.equal(
    summaryLine(report),
    "2026-07-28: scored 1/3 scenarios passed (7 checks passed, 33 failed); " +
      "not scored 2/3 scenarios passed (7 checks passed, 9 failed); exit code 1: FAILED",
  );
  const notScoredOnly = {
    suite: "2026-07-28",
    exitCode: 0, // the suite itself exits 0 when only not-scored scenarios fail
    scenarios: parseSummary(OUTPUT_2026).filter((s) => s.notScored || s.failed === 0),
  };
  assert.equal(suitePassed(notScoredOnly), false);
  assert.deepEqual(failureLines(notScoredOnly), ["  ✗ tasks-lifecycle (not scored: extension): 9 failed"]);
});

Deno.test("a clean run passes; an empty summary or a non-zero exit code fails", () => {
  const clean = { suite: "0.1.16", scenarios: parseSummary(OUTPUT_0116), exitCode: 0 };
  assert.equal(suitePassed(clean), true);
  assert.equal(summaryLine(clean), "0.1.16: 2/2 scenarios passed (2 checks passed, 0 failed): passed");
  assert.equal(suitePassed({ ...clean, exitCode: 3 }), false);
  assert.equal(suitePassed({ ...clean, scenarios: [] }), false);
  assert.match(summaryLine({ ...clean, scenarios: [] }), /no summary read/);
});

Deno.test("addCheckDetails adds warnings and failing checks from the -o directory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const scenarios = parseSummary(OUTPUT_2026);
    const write = async (name: string, checks: unknown[]) => {
      await Deno.mkdir(join(dir, name));
      await Deno.writeTextFile(join(dir, name, "checks.json"), JSON.stringify(checks));
    };
    assert.equal(scenarioOfDirectory("server-caching-2026-11-26T22-13-30-252Z"), "caching");
    await write("server-caching-2026-11-26T22-13-30-252Z", [
      { id: "sep-2549-tools-list-caching-hints", status: "FAILURE", errorMessage: "no ttlMs" },
      { id: "sep-2549-other", status: "WARNING" },
      { id: "sep-2549-ok", status: "SUCCESS" },
    ]);
    await write("server-unknown-2026-11-26T22-13-30-252Z", [{ id: "x", status: "WARNING" }]);
    await Deno.writeTextFile(join(dir, "stray.txt"), "");
    await addCheckDetails(scenarios, dir);
    const caching = scenarios.find((s) => s.name === "caching")!;
    assert.deepEqual(caching.warnings, ["sep-2549-other: "]);
    assert.deepEqual(warningLines({ suite: "s", scenarios, exitCode: 1 }), ["  ~ caching: sep-2549-other: "]);
    assert.deepEqual(caching.failures, ["sep-2549-tools-list-caching-hints: no ttlMs"]);
    assert.match(summaryLine({ suite: "s", scenarios, exitCode: 1 }), /; 1 warning; /);
    await addCheckDetails(scenarios, join(dir, "missing")); // no directory: nothing added, no throw
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

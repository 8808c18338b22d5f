/**
 * Reads one run of the MCP conformance suite (server mode): the per-scenario summary it prints, the
 * "Not scored" block it adds under `--requirements`, and the `checks.json` files it writes with `-o DIR`.
 * Pure functions, so `scripts/conformance.ts` stays about processes and the parsing is tested alone.
 *
 * @module
 */

import { join } from "node:path";

/** One scenario of a run, as the suite's summary reports it. */
export interface ScenarioOutcome {
  /** Scenario name, e.g. `tools-list`. */
  name: string;
  /** Checks with status SUCCESS. */
  passed: number;
  /** Checks with status FAILURE. */
  failed: number;
  /** `id: message` of each check with status WARNING (a SHOULD not met; the suite does not fail on them). */
  warnings: string[];
  /** Why the requirement set does not score it (`extension`, `pending`, ...); absent when scored. */
  notScored?: string;
  /** `id: message` of each failing check, when the run's `checks.json` was found. */
  failures: string[];
}

/** One suite's outcome. */
export interface SuiteReport {
  /** Suite label (`0.1.16`, `2025-11-25`, `2026-07-28`). */
  suite: string;
  /** Every scenario the summary listed. */
  scenarios: ScenarioOutcome[];
  /** The suite process's exit code. */
  exitCode: number;
}

const SUMMARY_LINE = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed/;
const NOT_SCORED_LINE = /^\s+[✓✗] (\S+) \(([^)]+)\)\s*$/;
const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/** The scenarios of the suite's printed summary, with the not-scored reasons of its "Not scored" block. */
export function parseSummary(output: string): ScenarioOutcome[] {
  const lines = output.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() === "=== SUMMARY ===");
  if (start === -1) return [];
  const scenarios: ScenarioOutcome[] = [];
  const reasons = new Map<string, string>();
  let inNotScored = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("Not scored for ")) {
      inNotScored = true;
      continue;
    }
    const reason = inNotScored ? NOT_SCORED_LINE.exec(line) : null;
    if (reason) {
      reasons.set(reason[1], reason[2]);
      continue;
    }
    const match = SUMMARY_LINE.exec(line);
    if (match && !inNotScored) {
      scenarios.push({
        name: match[2],
        passed: Number(match[3]),
        failed: Number(match[4]),
        warnings: [],
        failures: [],
      });
    }
  }
  for (const scenario of scenarios) {
    const why = reasons.get(scenario.name);
    if (why) scenario.notScored = why;
  }
  return scenarios;
}

/** A check as `checks.json` holds it (the fields read here). */
interface Check {
  id?: string;
  status?: string;
  errorMessage?: string;
}

/** The scenario a result directory belongs to: `server-tools-list-2026-...Z` is `tools-list`. */
export function scenarioOfDirectory(directory: string): string {
  return directory.replace(TIMESTAMP, "").replace(/^server-/, "");
}

/** Adds warnings and failing check messages from the `checks.json` files under `dir` to `scenarios`. */
export async function addCheckDetails(scenarios: ScenarioOutcome[], dir: string): Promise<void> {
  const byName = new Map(scenarios.map((scenario) => [scenario.name, scenario]));
  let entries: Deno.DirEntry[] = [];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return; // no -o directory: the summary counts stand alone
  }
  for (const entry of entries) {
    const scenario = byName.get(scenarioOfDirectory(entry.name));
    if (!entry.isDirectory || !scenario) continue;
    let checks: Check[];
    try {
      checks = JSON.parse(await Deno.readTextFile(join(dir, entry.name, "checks.json")));
    } catch {
      continue;
    }
    for (const check of checks) {
      const line = `${check.id ?? "?"}: ${(check.errorMessage ?? "").slice(0, 240)}`;
      if (check.status === "WARNING") scenario.warnings.push(line);
      if (check.status === "FAILURE") scenario.failures.push(line);
    }
  }
}

/** Whether a suite run passed: it exited 0, reported scenarios, and no scenario (scored or not) failed. */
export function suitePassed(report: SuiteReport): boolean {
  return report.exitCode === 0 && report.scenarios.length > 0 &&
    report.scenarios.every((scenario) => scenario.failed === 0);
}

function tally(scenarios: ScenarioOutcome[]): string {
  const ok = scenarios.filter((scenario) => scenario.failed === 0).length;
  const passed = scenarios.reduce((sum, scenario) => sum + scenario.passed, 0);
  const failed = scenarios.reduce((sum, scenario) => sum + scenario.failed, 0);
  return `${ok}/${scenarios.length} scenarios passed (${passed} checks passed, ${failed} failed)`;
}

/** The one summary line of a suite, e.g. `2026-07-28: scored 37/37 scenarios passed (...); not scored ...`. */
export function summaryLine(report: SuiteReport): string {
  const scored = report.scenarios.filter((scenario) => !scenario.notScored);
  const notScored = report.scenarios.filter((scenario) => scenario.notScored);
  const warnings = report.scenarios.reduce((sum, scenario) => sum + scenario.warnings.length, 0);
  const parts = notScored.length
    ? [`scored ${tally(scored)}`, `not scored ${tally(notScored)}`]
    : [tally(scored)];
  if (warnings) parts.push(`${warnings} warning${warnings === 1 ? "" : "s"}`);
  if (report.scenarios.length === 0) parts.push("no summary read from the suite's output");
  if (report.exitCode !== 0) parts.push(`exit code ${report.exitCode}`);
  return `${report.suite}: ${parts.join("; ")}: ${suitePassed(report) ? "passed" : "FAILED"}`;
}

/** One line per failing scenario, then its failing checks indented. */
export function failureLines(report: SuiteReport): string[] {
  const lines: string[] = [];
  for (const scenario of report.scenarios.filter((each) => each.failed > 0)) {
    const tag = scenario.notScored ? ` (not scored: ${scenario.notScored})` : "";
    lines.push(`  ✗ ${scenario.name}${tag}: ${scenario.failed} failed`);
    for (const failure of scenario.failures) lines.push(`      ${failure}`);
  }
  return lines;
}

/** One line per warning check (`~ scenario: id: message`); warnings do not fail a suite. */
export function warningLines(report: SuiteReport): string[] {
  return report.scenarios.flatMap((scenario) =>
    scenario.warnings.map((warning) => `  ~ ${scenario.name}: ${warning}`)
  );
}

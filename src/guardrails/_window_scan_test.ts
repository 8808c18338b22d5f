import assert from "node:assert/strict";
import { scanWindows, type WindowDetector } from "./_window_scan.ts";

/** Finds every "x", and cannot read a window holding a "!". */
const fragile: WindowDetector = {
  name: "fragile",
  detect(text: string) {
    if (text.includes("!")) throw new Error("cannot read this window");
    return [...text.matchAll(/x/g)].map((match) => ({ category: "x", offset: match.index }));
  },
};

Deno.test("scanWindows maps window offsets to the whole text and repeats overlap findings", () => {
  const text = "a".repeat(45) + "x" + "a".repeat(54);
  const findings = scanWindows(text, [fragile], { windowSize: 50, overlap: 10 });
  // The x at 45 lies in the windows starting at 0 and 40; scanResult drops the duplicate later.
  assert.deepEqual(findings, [
    { detector: "fragile", category: "x", offset: 45 },
    { detector: "fragile", category: "x", offset: 45 },
  ]);
});

Deno.test("a detector that throws flags its window scanner_error, or is skipped when fail-open", () => {
  const text = "a".repeat(60) + "!" + "a".repeat(20);
  const closed = scanWindows(text, [fragile], { windowSize: 50, overlap: 10 });
  assert.deepEqual(closed, [{ detector: "fragile", category: "scanner_error", offset: 40 }]);
  assert.deepEqual(scanWindows(text, [fragile], { windowSize: 50, overlap: 10, failOpen: true }), []);
});

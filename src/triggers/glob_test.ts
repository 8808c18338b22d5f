import assert from "node:assert/strict";
import { globMatcher, globToRegExp, matchesGlob } from "./glob.ts";

const REGEX_CASES: Array<[pattern: string, path: string, expected: boolean]> = [
  ["*.csv", "data.csv", true],
  ["*.csv", ".csv", true],
  ["*.csv", "data.csv.bak", false],
  ["*.csv", "in/data.csv", false],
  ["*", "", true],
  ["*", "a/b", false],
  ["**", "a/b/c", true],
  ["**.json", "a/b.json", true],
  ["a/**/b", "a/b", true],
  ["a/**/b", "a/x/b", true],
  ["a/**/b", "a/x/y/b", true],
  ["a/**/b", "ab", false],
  ["a/**/b", "a/xb", false],
  ["**/*.json", "q1.json", true],
  ["**/*.json", "x/y/q1.json", true],
  ["reports/**/*.json", "reports/q1.json", true],
  ["reports/**/*.json", "reports/2024/q1/x.json", true],
  ["reports/**/*.json", "reports/2024/q1.csv", false],
  ["reports/**/*.json", "other/reports/q1.json", false],
  ["reports/**", "reports/a/b", true],
  ["file?.txt", "file1.txt", true],
  ["file?.txt", "file10.txt", false],
  ["file?.txt", "file/.txt", false],
  ["[abc].md", "b.md", true],
  ["[abc].md", "d.md", false],
  ["log-[0-9][0-9].txt", "log-42.txt", true],
  ["log-[0-9][0-9].txt", "log-4x.txt", false],
  ["[!x]y", "ay", true],
  ["[!x]y", "xy", false],
  ["[!x]y", "/y", false],
  ["[^x]y", "xy", false],
  ["[]]", "]", true],
  ["[!]]", "a", true],
  ["[!]]", "]", false],
  ["[a-", "[a-", true],
  ["a.b", "a.b", true],
  ["a.b", "axb", false],
  ["(a)+{1}|$^", "(a)+{1}|$^", true],
  ["a+", "aa", false],
  ["\\*.txt", "*.txt", true],
  ["\\*.txt", "a.txt", false],
  ["über-*.txt", "über-1.txt", true],
  ["?.txt", "é.txt", true],
];

for (const [pattern, path, expected] of REGEX_CASES) {
  Deno.test(
    `globToRegExp(${JSON.stringify(pattern)}) ${expected ? "matches" : "does not match"} ${
      JSON.stringify(path)
    }`,
    () => {
      assert.equal(globToRegExp(pattern).test(path), expected);
    },
  );
}

const MATCH_CASES: Array<[pattern: string, path: string, expected: boolean]> = [
  ["*.csv", "data.csv", true],
  ["*.csv", "in/deep/data.csv", true],
  ["*.csv", "in.csv/data.txt", false],
  ["in/*.csv", "in/data.csv", true],
  ["in/*.csv", "in/sub/data.csv", false],
  ["in/*.csv", "data.csv", false],
  ["reports/**/*.json", "reports/x/q1.json", true],
  ["reports/**/*.json", "x/reports/q1.json", false],
  ["./in/*.csv", "in/data.csv", true],
  ["/in/*.csv", "in/data.csv", true],
  ["*.csv", "./data.csv", true],
];

for (const [pattern, path, expected] of MATCH_CASES) {
  Deno.test(`matchesGlob(${JSON.stringify(pattern)}, ${JSON.stringify(path)}) is ${expected}`, () => {
    assert.equal(matchesGlob(pattern, path), expected);
  });
}

Deno.test("globMatcher matches when any pattern matches", () => {
  const matches = globMatcher(["*.csv", "reports/**/*.json"]);
  assert.equal(matches("a/b.csv"), true);
  assert.equal(matches("reports/2024/q1.json"), true);
  assert.equal(matches("notes/q1.json"), false);
  assert.equal(globMatcher([])("a.csv"), false);
});

Deno.test("an invalid class range is a SyntaxError", () => {
  assert.throws(() => globToRegExp("[z-a]"), SyntaxError);
});

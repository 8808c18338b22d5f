import assert from "node:assert/strict";
import { parse } from "yaml";
import { mcpcast } from "./mcpcast.ts";
import { loadPlan, savePlan } from "./plan_yaml.ts";
import { writeYaml } from "./plan_yaml_writer.ts";

const read = (text: string) => parse(text, { schema: "core" });

Deno.test("strings that could be misread are quoted; the text reads back to the same data", () => {
  const tricky = [
    "",
    " lead",
    "trail ",
    "yes",
    "No",
    "null",
    "~",
    "true",
    "123",
    "1.5",
    "1e5",
    "0x1F",
    ".inf",
    "-1",
    "- dash",
    "key: value",
    "a #comment",
    "#hash",
    "ends:",
    "[x]",
    "{y}",
    "*star",
    "&amp",
    "!tag",
    "|pipe",
    ">fold",
    "'single",
    '"double',
    "%pct",
    "@at",
    "`tick",
    "multi\nline",
    "tab\there",
    "nel\u0085x",
    "ls\u2028x",
    "del\x7fx",
    "c1\x9bx",
    "bom\ufeffx",
    "emoji 😀",
    "/pets/{petId}",
    "https://a.example/b?c=d#e",
  ];
  const data = { list: tricky, map: Object.fromEntries(tricky.map((t, i) => [t || `empty${i}`, t])) };
  assert.deepEqual(read(writeYaml(data)), data);
});

Deno.test("numbers, booleans, nulls, empty and nested containers read back exactly", () => {
  const data = {
    n: [0, -3, 1.25, 1e21, 2 ** 53],
    b: [true, false],
    z: null,
    e: { m: {}, l: [] },
    nested: [[1, [2, []]], [{ a: { b: [{}] } }], { x: [{ y: null }] }],
  };
  assert.deepEqual(read(writeYaml(data)), data);
});

Deno.test("long strings are folded at spaces near the width and read back unchanged", () => {
  const sentence = "word ".repeat(60).trim() + "  double  spaces stay";
  const text = writeYaml({ outer: { description: sentence } }, 100);
  assert.ok(text.split("\n").every((line) => line.length <= 104), text);
  assert.equal((read(text) as { outer: { description: string } }).outer.description, sentence);
});

Deno.test("the GitHub spec's full plan survives savePlan and loadPlan", async () => {
  const spec = new URL("../../tests/fixtures/specs/api.github.com.json", import.meta.url).pathname;
  const plan = await mcpcast(spec, { profile: "full" });
  assert.deepEqual(loadPlan(savePlan(plan)), plan);
});

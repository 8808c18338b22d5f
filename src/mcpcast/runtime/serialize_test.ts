import assert from "node:assert/strict";
import {
  defaultStyle,
  type ParamStyle,
  percentEncode,
  serializeCookie,
  serializeHeader,
  serializePath,
  serializeQuery,
} from "./serialize.ts";

const STRING = "blue";
const ARRAY = ["blue", "black", "brown"];
const OBJECT = { R: 100, G: 200, B: 150 };

// The OpenAPI 3.1.1 style examples table (section "Style Examples"), row by row: style, explode,
// then the `undefined`, `string`, `array` and `object` columns; null where the table says n/a.
// Query rows are given without the leading "?"; "*empty*" is "".
const TABLE: Array<[ParamStyle, boolean, string | null, string | null, string | null, string | null]> = [
  ["matrix", false, ";color", ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
  ["matrix", true, ";color", ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
  ["label", false, ".", ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
  ["label", true, ".", ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
  ["simple", false, "", "blue", "blue,black,brown", "R,100,G,200,B,150"],
  ["simple", true, "", "blue", "blue,black,brown", "R=100,G=200,B=150"],
  ["form", false, "color=", "color=blue", "color=blue,black,brown", "color=R,100,G,200,B,150"],
  ["form", true, "color=", "color=blue", "color=blue&color=black&color=brown", "R=100&G=200&B=150"],
  ["spaceDelimited", false, null, null, "color=blue%20black%20brown", "color=R%20100%20G%20200%20B%20150"],
  ["spaceDelimited", true, null, null, null, null],
  ["pipeDelimited", false, null, null, "color=blue%7Cblack%7Cbrown", "color=R%7C100%7CG%7C200%7CB%7C150"],
  ["pipeDelimited", true, null, null, null, null],
  ["deepObject", false, null, null, null, null],
  ["deepObject", true, null, null, null, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"],
];

const PATH_STYLES = new Set<ParamStyle>(["matrix", "label", "simple"]);

function render(style: ParamStyle, explode: boolean, value: unknown): string {
  if (PATH_STYLES.has(style)) return serializePath("color", value, { style, explode });
  return serializeQuery("color", value, { style, explode }).join("&");
}

Deno.test("every cell of the OpenAPI 3.1.1 style examples table is reproduced", () => {
  let checked = 0;
  for (const [style, explode, undefinedCell, stringCell, arrayCell, objectCell] of TABLE) {
    const cells: Array<[string, unknown, string | null]> = [
      // An absent query parameter is omitted, so the query "undefined" column is an empty string's.
      ["undefined", PATH_STYLES.has(style) ? undefined : "", undefinedCell],
      ["string", STRING, stringCell],
      ["array", ARRAY, arrayCell],
      ["object", OBJECT, objectCell],
    ];
    for (const [column, value, expected] of cells) {
      if (expected === null) continue;
      assert.equal(render(style, explode, value), expected, `${style} explode=${explode} ${column}`);
      checked++;
    }
  }
  assert.equal(checked, 37);
});

Deno.test("absent query values give no pairs; nulls inside arrays and objects are left out", () => {
  assert.deepEqual(serializeQuery("color", undefined, { style: "form", explode: true }), []);
  assert.deepEqual(serializeQuery("color", null, { style: "form", explode: false }), []);
  assert.deepEqual(serializeQuery("c", ["a", null, "b"], { style: "form", explode: false }), ["c=a,b"]);
  assert.deepEqual(serializeQuery("c", { a: null, b: 1 }, { style: "form", explode: true }), ["b=1"]);
});

Deno.test("values are percent-encoded so a delimiter inside a value never reads as one", () => {
  assert.deepEqual(serializeQuery("q", ["a,b", "c d"], { style: "form", explode: false }), ["q=a%2Cb,c%20d"]);
  assert.equal(serializePath("id", ["a/b", "c"], { style: "simple", explode: false }), "a%2Fb,c");
  assert.deepEqual(serializeQuery("q", "é&x", { style: "form", explode: true }), ["q=%C3%A9%26x"]);
  assert.equal(percentEncode("a-b_c.d~e"), "a-b_c.d~e");
});

Deno.test("allowReserved leaves reserved characters in query values unencoded, and nothing else", () => {
  const options = { style: "form" as const, explode: true, allowReserved: true };
  assert.deepEqual(serializeQuery("path", "/a/b:c,d", options), ["path=/a/b:c,d"]);
  assert.deepEqual(serializeQuery("path", "a b", options), ["path=a%20b"]);
  assert.deepEqual(serializeQuery("path", "/a", { style: "form", explode: true }), ["path=%2Fa"]);
});

Deno.test("Swagger 2 tsv is tab-delimited; deepObject nests brackets and indexes arrays", () => {
  assert.deepEqual(serializeQuery("t", ["a", "b"], { style: "tabDelimited", explode: false }), ["t=a%09b"]);
  assert.deepEqual(
    serializeQuery("m", { a: { b: 1 }, l: ["x", "y"] }, { style: "deepObject", explode: true }),
    ["m%5Ba%5D%5Bb%5D=1", "m%5Bl%5D%5B0%5D=x", "m%5Bl%5D%5B1%5D=y"],
  );
});

Deno.test("nested values outside deepObject travel as JSON text", () => {
  assert.deepEqual(
    serializeQuery("f", [{ k: 1 }], { style: "form", explode: true }),
    [`f=${percentEncode('{"k":1}')}`],
  );
});

Deno.test("headers are simple (percent-encoded only for control and non-ASCII characters); cookies are form", () => {
  assert.equal(serializeHeader(ARRAY, false), "blue,black,brown");
  assert.equal(serializeHeader(OBJECT, false), "R,100,G,200,B,150");
  assert.equal(serializeHeader(OBJECT, true), "R=100,G=200,B=150");
  assert.equal(serializeHeader("a b/c\r\nX: y", false), "a b/c%0D%0AX: y");
  assert.equal(serializeHeader("café\t", false), "caf%C3%A9%09");
  assert.deepEqual(serializeCookie("color", ARRAY, false), ["color=blue,black,brown"]);
  assert.deepEqual(serializeCookie("color", ARRAY, true), ["color=blue", "color=black", "color=brown"]);
  assert.deepEqual(serializeCookie("color", OBJECT, true), ["R=100", "G=200", "B=150"]);
});

Deno.test("defaults by location: path and header simple, query and cookie form exploded", () => {
  assert.deepEqual(defaultStyle("path"), { style: "simple", explode: false });
  assert.deepEqual(defaultStyle("header"), { style: "simple", explode: false });
  assert.deepEqual(defaultStyle("query"), { style: "form", explode: true });
  assert.deepEqual(defaultStyle("cookie"), { style: "form", explode: true });
});

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../../_util/temp_dir.ts";
import { parseMcpcastArgs } from "./args.ts";
import { checkFrameworkImport } from "./framework_import.ts";
import { UsageError } from "../exit.ts";

const CHECKOUT = fileURLToPath(new URL("../../../", import.meta.url)).replace(/\/$/, "");

Deno.test("--framework-import takes the path of a checkout, relative or absolute, as its absolute file: URL", () => {
  const url = new URL(`file://${CHECKOUT}`).href;
  assert.equal(checkFrameworkImport(CHECKOUT), url);
  assert.equal(checkFrameworkImport(`${CHECKOUT}/`), url);
  assert.equal(checkFrameworkImport(relative(Deno.cwd(), CHECKOUT) || "."), url);
  assert.equal(checkFrameworkImport(`${url}/`), url);
  assert.equal(parseMcpcastArgs(["s.yaml", "--framework-import", CHECKOUT]).frameworkImport, url);
  assert.equal(parseMcpcastArgs(["--plan", "p.yaml", "--framework-import", CHECKOUT]).frameworkImport, url);
  assert.equal(checkFrameworkImport(undefined), undefined);
});

Deno.test("--framework-import keeps a jsr:, npm: or http(s) specifier as given", () => {
  for (
    const specifier of [
      "jsr:@agentry/agentry@^0.2",
      "jsr:/@agentry/agentry@0.1.3/",
      "npm:@agentry/agentry@1",
      "https://esm.example/agentry@0.1",
    ]
  ) {
    assert.equal(checkFrameworkImport(specifier), specifier);
  }
});

Deno.test("--framework-import refuses what is neither a package specifier nor a checkout, in one line", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "deno.json"), JSON.stringify({ exports: { ".": "./mod.ts" } }));
  const cases: Array<[string, RegExp]> = [
    ["", /must not be empty/],
    ["github:agentry/agentry", /must be a jsr:, npm: or http\(s\) specifier/],
    ["jsr:agentry", /must be a jsr:/],
    ["jsr:@agentry/agentry@^0.1/mcp", /must be a jsr:/],
    ["https://", /must be a jsr:/],
    [join(dir.path, "missing"), /is not a checkout of @agentry\/agentry: no readable deno\.json there/],
    [dir.path, /is not a checkout of @agentry\/agentry: deno\.json exports no '@agentry\/agentry\/mcp'/],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => parseMcpcastArgs(["s.yaml", "--framework-import", value]), (error) => {
      assert.ok(error instanceof UsageError, value);
      assert.match(error.message, message, value);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
  }
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../../_util/temp_dir.ts";
import { mcpcast } from "../../mcpcast/mod.ts";
import { type CastTarget, currentImports, writeCast } from "./write.ts";

const PETSTORE = fileURLToPath(
  new URL("../../../tests/fixtures/specs/petstore_swagger2.yaml", import.meta.url),
);
const CHECKOUT = new URL("../../../", import.meta.url).href.replace(/\/$/, "");

Deno.test("regenerating without --framework-import keeps the library source the project was written with", async () => {
  await using dir = await tempDir();
  const plan = await mcpcast(PETSTORE, { profile: "standard" });
  const target = (frameworkImport?: string): CastTarget => ({
    plan,
    outDir: dir.path,
    shownDir: dir.path,
    writePlan: true,
    planOnly: false,
    force: false,
    fromSpec: false,
    ...(frameworkImport === undefined ? {} : { frameworkImport }),
  });
  assert.equal(await currentImports(dir.path), undefined);
  await writeCast(target());
  assert.deepEqual(await currentImports(dir.path), { "@agentry/agentry/": "jsr:/@agentry/agentry@^0.1/" });
  await writeCast(target(CHECKOUT));
  const checkout = await currentImports(dir.path);
  assert.equal(checkout?.["@agentry/agentry/mcp"], `${CHECKOUT}/src/mcp/mod.ts`);
  await writeCast(target());
  assert.deepEqual(await currentImports(dir.path), checkout);
  await writeCast(target("jsr:@agentry/agentry@^0.1"));
  assert.deepEqual(await currentImports(dir.path), { "@agentry/agentry/": "jsr:/@agentry/agentry@^0.1/" });
  await Deno.writeTextFile(join(dir.path, "deno.json"), "// header\n{ not json");
  assert.equal(await currentImports(dir.path), undefined);
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { snapshotDiff, snapshotLines } from "./check_exports.ts";

const root = join(new URL(".", import.meta.url).pathname, "..");
const symbol = (name: string, ...kinds: string[]) => ({
  name,
  declarations: kinds.map((kind) => ({ kind })),
});

Deno.test("the export snapshot lists each entry point's names sorted, with merged declaration kinds", () => {
  const doc = {
    nodes: {
      [pathToFileURL(join(root, "mod.ts")).href]: {
        symbols: [symbol("Logger", "class"), symbol("LogLevel", "typeAlias", "variable")],
      },
      [pathToFileURL(join(root, "src/api/client.ts")).href]: { symbols: [symbol("RuntimeClient", "class")] },
    },
  };
  const lines = snapshotLines(doc, { "./client": "./src/api/client.ts", ".": "./mod.ts" });
  assert.deepEqual(lines, [
    ". class Logger",
    ". typeAlias+variable LogLevel",
    "./client class RuntimeClient",
  ]);
});

Deno.test("the export snapshot refuses an entry point deno doc did not describe", () => {
  assert.throws(() => snapshotLines({ nodes: {} }, { ".": "./mod.ts" }), /deno doc gave nothing for \./);
});

Deno.test("an export snapshot diff names the added and the removed lines", () => {
  assert.deepEqual(snapshotDiff([". class A", ". class B"], [". class B", ". class C"]), [
    "+ . class C",
    "- . class A",
  ]);
  assert.deepEqual(snapshotDiff([". class A"], [". class A"]), []);
});

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { renderAssets } from "./console_assets.ts";

const root = new URL("..", import.meta.url);

Deno.test("src/console/_assets.ts is generated from src/console/static (deno task console)", async () => {
  const dir = fileURLToPath(new URL("src/console/static", root));
  const current = await Deno.readTextFile(new URL("src/console/_assets.ts", root));
  assert.equal(current, await renderAssets(dir), "stale: run deno task console");
});

Deno.test("console_assets --check passes on the committed file", async () => {
  const script = fileURLToPath(new URL("scripts/console_assets.ts", root));
  const run = (args: string[]) =>
    new Deno.Command(Deno.execPath(), { args: ["run", "--allow-read", script, ...args], stderr: "piped" })
      .output();
  const fresh = await run(["--check"]);
  assert.equal(fresh.code, 0, new TextDecoder().decode(fresh.stderr));
});

import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../_util/temp_dir.ts";
import { permissionFlags, YAML_DEBUG_VARIABLES } from "./permissions.ts";

Deno.test("permission flags ignore the yaml debug variables instead of granting them", () => {
  const flags = permissionFlags({ read: ["/d"], write: ["/d"], env: ["AGENTRY_API_TOKEN"], run: false });
  assert.deepEqual(flags, [
    "--allow-net",
    "--allow-read=/d",
    "--allow-write=/d",
    "--allow-env=AGENTRY_API_TOKEN",
    "--ignore-env=LOG_STREAM,LOG_TOKENS",
  ]);
  assert.deepEqual(YAML_DEBUG_VARIABLES, ["LOG_STREAM", "LOG_TOKENS"]);
  const all = permissionFlags({ read: ["/d"], write: ["/d"], env: "all", run: true });
  assert.deepEqual(
    all.slice(3),
    ["--allow-env", "--allow-run"],
    "every variable is readable: nothing to ignore",
  );
});

Deno.test("a YAML parse under --ignore-env reads no debug variable; without it, it needs a grant", async () => {
  await using dir = await tempDir();
  const script = join(dir.path, "parse.ts");
  await Deno.writeTextFile(
    script,
    'import { parse } from "yaml"; console.log(JSON.stringify(parse("a: [1, 2]")));',
  );
  const config = fileURLToPath(new URL("../../deno.json", import.meta.url));
  const run = async (flags: string[]) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", `--config=${config}`, ...flags, script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: output.code, stdout: new TextDecoder().decode(output.stdout).trim() };
  };
  assert.deepEqual(await run(["--ignore-env=LOG_STREAM,LOG_TOKENS"]), { code: 0, stdout: '{"a":[1,2]}' });
  assert.equal((await run([])).code, 1, "the yaml package does read them");
});

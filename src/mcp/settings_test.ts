import assert from "node:assert/strict";
import { loadServerSettings } from "./settings.ts";

Deno.test("settings come from AGENTRY_ variables; bad values are refused naming the variable", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.deepEqual(
    loadServerSettings(
      env({ AGENTRY_SERVER_NAME: "s", AGENTRY_LOG_LEVEL: "WARNING", AGENTRY_TIMEOUT_DEFAULT: "2.5" }),
    ),
    { serverName: "s", logLevel: "warning", timeoutDefault: 2.5 },
  );
  assert.deepEqual(loadServerSettings(env({})), {});
  assert.throws(() => loadServerSettings(env({ AGENTRY_LOG_LEVEL: "loud" })), /AGENTRY_LOG_LEVEL/);
  assert.throws(() => loadServerSettings(env({ AGENTRY_TIMEOUT_DEFAULT: "-1" })), /AGENTRY_TIMEOUT_DEFAULT/);
  assert.throws(
    () => loadServerSettings(env({ AGENTRY_TIMEOUT_DEFAULT: "soon" })),
    /AGENTRY_TIMEOUT_DEFAULT/,
  );
});

Deno.test("createToolServer reads the settings from the environment unless settings are given", async () => {
  const code = `
    import { createToolServer } from "${new URL("./tool_server.ts", import.meta.url).href}";
    const a = createToolServer();
    console.log(JSON.stringify([a.name, a.defaultTimeout, createToolServer({ name: "explicit" }).name,
      createToolServer({ settings: {} }).name]));`;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-prompt", code],
    env: { AGENTRY_SERVER_NAME: "from-env", AGENTRY_TIMEOUT_DEFAULT: "7", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), [
    "from-env",
    7,
    "explicit",
    "agentry-server",
  ]);
});

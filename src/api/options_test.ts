import assert from "node:assert/strict";
import { AgentRuntime } from "../runtime/mod.ts";
import { createControlApi } from "./control_api.ts";
import { apiEnvLookup, type ControlApiOptions, resolveControlApiOptions } from "./options.ts";
import { ControlServer } from "./server.ts";
import { memoryLogger, send } from "../../tests/_api_harness.ts";

const noEnv = () => undefined;
const envOf = (values: Record<string, string>) => (name: string) => values[name];

/** The error thrown by `fn`, failing the test when it returns. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail("expected an exception");
}

/** Asserts that resolving, building the API and building the server all throw `kind`. */
function refusedEverywhere(options: ControlApiOptions, kind: ErrorConstructor | RangeErrorConstructor): void {
  const runtime = new AgentRuntime({ logger: memoryLogger().logger });
  for (
    const build of [
      () => resolveControlApiOptions(options),
      () => createControlApi(runtime, options),
      () => new ControlServer(runtime, options),
    ]
  ) {
    const error = thrown(build);
    assert.ok(error instanceof kind, `expected ${kind.name}, got ${String(error)}`);
  }
}

Deno.test("defaults: 127.0.0.1:9100, loopback, no token, nothing allowed", () => {
  const resolved = resolveControlApiOptions({ env: noEnv });
  assert.equal(resolved.host, "127.0.0.1");
  assert.equal(resolved.port, 9100);
  assert.equal(resolved.loopback, true);
  assert.equal(resolved.authToken, undefined);
  assert.equal(resolved.onShutdown, undefined);
  assert.equal(resolved.allowCommandDeploys, false);
  assert.equal(resolved.allowEnvReferences, false);
  assert.equal(resolved.allowedEnvVars.size, 0);
});

Deno.test("an empty auth token is a RangeError", () => {
  refusedEverywhere({ authToken: "", env: noEnv }, RangeError);
});

Deno.test("an auth token naming an unset environment variable is a RangeError", () => {
  refusedEverywhere({ authToken: "${UNSET}", env: noEnv }, RangeError);
  refusedEverywhere({ authToken: "${EMPTY_TOKEN}", env: envOf({ EMPTY_TOKEN: "" }) }, RangeError);
});

Deno.test("a ${VAR} auth token is read from the env option", async () => {
  const env = envOf({ API_TOKEN: "token-from-env-41" });
  assert.equal(resolveControlApiOptions({ authToken: "${API_TOKEN}", env }).authToken, "token-from-env-41");
  const app = createControlApi(new AgentRuntime({ logger: memoryLogger().logger }), {
    authToken: "${API_TOKEN}",
    env,
  });
  assert.equal((await send(app, "GET", "/api/v1/processes", { token: "token-from-env-41" })).status, 200);
  assert.equal((await send(app, "GET", "/api/v1/processes", { token: "${API_TOKEN}" })).status, 401);
});

Deno.test("a token with a reference inside other text is used literally", () => {
  const resolved = resolveControlApiOptions({ authToken: "pre-${API_TOKEN}", env: noEnv });
  assert.equal(resolved.authToken, "pre-${API_TOKEN}");
});

Deno.test("a non-loopback host without a token is a RangeError; with one it is accepted", () => {
  for (const host of ["0.0.0.0", "192.168.1.10", "::", "agents.example"]) {
    refusedEverywhere({ host, env: noEnv }, RangeError);
    const resolved = resolveControlApiOptions({ host, authToken: "s3cret-token", env: noEnv });
    assert.equal(resolved.loopback, false, host);
  }
});

Deno.test("loopback hosts need no token", () => {
  for (const host of ["127.0.0.1", "127.3.2.1", "localhost", "::1", "[::1]"]) {
    const resolved = resolveControlApiOptions({ host, env: noEnv });
    assert.equal(resolved.loopback, true, host);
    assert.equal(resolved.authToken, undefined);
  }
});

Deno.test("an onShutdown that is not a function is a TypeError", () => {
  refusedEverywhere({ onShutdown: "exit" as unknown as () => void, env: noEnv }, TypeError);
  const callback = () => {};
  assert.equal(resolveControlApiOptions({ onShutdown: callback, env: noEnv }).onShutdown, callback);
});

Deno.test("allowedEnvVars as a single string is a TypeError; arrays and sets of names are accepted", () => {
  refusedEverywhere({ allowedEnvVars: "API_TOKEN", env: noEnv }, TypeError);
  refusedEverywhere({ allowedEnvVars: [1] as unknown as string[], env: noEnv }, TypeError);
  refusedEverywhere({ allowedEnvVars: 7 as unknown as string[], env: noEnv }, TypeError);
  const fromArray = resolveControlApiOptions({ allowedEnvVars: ["A", "B", "A"], env: noEnv });
  assert.deepEqual([...fromArray.allowedEnvVars].sort(), ["A", "B"]);
  const fromSet = resolveControlApiOptions({ allowedEnvVars: new Set(["C"]), env: noEnv });
  assert.deepEqual([...fromSet.allowedEnvVars], ["C"]);
});

Deno.test("a port outside 0..65535 or not an integer is a RangeError", () => {
  for (const port of [-1, 65536, 1.5, Number.NaN]) refusedEverywhere({ port, env: noEnv }, RangeError);
  assert.equal(resolveControlApiOptions({ port: 0, env: noEnv }).port, 0);
});

Deno.test("API-deployed processes resolve only allowed variables unless every reference is allowed", () => {
  const env = envOf({ ALLOWED: "a-value", OTHER: "o-value" });
  const narrow = apiEnvLookup(resolveControlApiOptions({ allowedEnvVars: ["ALLOWED"], env }));
  assert.equal(narrow("ALLOWED"), "a-value");
  assert.equal(narrow("OTHER"), undefined);
  assert.equal(narrow("MISSING"), undefined);
  const wide = apiEnvLookup(resolveControlApiOptions({ allowEnvReferences: true, env }));
  assert.equal(wide("OTHER"), "o-value");
  assert.equal(wide("MISSING"), undefined);
});

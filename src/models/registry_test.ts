import assert from "node:assert/strict";
import { MissingModelKeyError, UnknownProviderError } from "./errors.ts";
import { ollamaBaseUrl } from "./providers.ts";
import { parseModelString, ProviderRegistry } from "./registry.ts";
import { startModelServer } from "./testing/mod.ts";
import type { ModelClient } from "./types.ts";

function envOf(values: Record<string, string>): (name: string) => string | undefined {
  return (name) => values[name];
}

Deno.test("model strings split at the first colon", () => {
  assert.deepEqual(parseModelString("openai:gpt-5-mini"), { provider: "openai", model: "gpt-5-mini" });
  assert.deepEqual(parseModelString("ollama:llama3.2:3b"), { provider: "ollama", model: "llama3.2:3b" });
  for (const bad of ["gpt-5-mini", ":model", "openai:", ""]) {
    assert.throws(() => parseModelString(bad), UnknownProviderError);
  }
});

Deno.test("registry refuses an unknown provider by name", () => {
  const error = (() => {
    try {
      new ProviderRegistry().resolve("nope:model", { env: envOf({}) });
    } catch (error) {
      return error;
    }
  })();
  assert.ok(error instanceof UnknownProviderError);
  assert.equal(error.provider, "nope");
});

Deno.test("registry names the missing variable and never a value", () => {
  const registry = new ProviderRegistry();
  const cases: Array<[string, string]> = [
    ["openai:gpt-5-mini", "OPENAI_API_KEY"],
    ["anthropic:claude", "ANTHROPIC_API_KEY"],
    ["openai-compatible:m", "OPENAI_COMPATIBLE_BASE_URL"],
  ];
  for (const [model, variable] of cases) {
    const env = envOf({ OPENAI_BASE_URL: "http://secret-base.example", OPENAI_API_KEY: "", OTHER: "sk-zzz" });
    assert.throws(() => registry.resolve(model, { env }), (error: unknown) => {
      assert.ok(error instanceof MissingModelKeyError);
      assert.equal(error.variable, variable);
      assert.ok(error.message.includes(variable));
      assert.equal(/secret-base|sk-zzz/.test(error.message), false);
      return true;
    });
  }
});

Deno.test("registry lists every variable of its providers, sorted, including registered ones", () => {
  const registry = new ProviderRegistry();
  assert.deepEqual(registry.names(), ["anthropic", "ollama", "openai", "openai-compatible"]);
  assert.deepEqual(registry.variables(), [
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_BASE_URL",
    "OLLAMA_HOST",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_COMPATIBLE_API_KEY",
    "OPENAI_COMPATIBLE_BASE_URL",
  ]);
  const own: ModelClient = {
    provider: "mine",
    model: "",
    complete: () => Promise.reject(new Error("unused")),
  };
  registry.register({
    name: "mine",
    variables: ["MINE_KEY", "OLLAMA_HOST"],
    create: (model) => ({ ...own, model }),
  });
  assert.equal(registry.has("mine"), true);
  assert.equal(registry.variables().filter((name) => name === "OLLAMA_HOST").length, 1);
  assert.ok(registry.variables().includes("MINE_KEY"));
  assert.equal(registry.resolve("mine:x:y", { env: envOf({}) }).model, "x:y");
});

Deno.test("ollama host without a scheme gets http and the default port", () => {
  assert.equal(ollamaBaseUrl(undefined), "http://localhost:11434/v1");
  assert.equal(ollamaBaseUrl("127.0.0.1:11434"), "http://127.0.0.1:11434/v1");
  assert.equal(ollamaBaseUrl("gpu-box"), "http://gpu-box:11434/v1");
  assert.equal(ollamaBaseUrl("https://ollama.example/"), "https://ollama.example/v1");
});

Deno.test("each built-in provider reaches its API at the configured base", async () => {
  await using server = startModelServer();
  const host = server.url.replace(/^http:\/\//, "").replace(/\/v1$/, "");
  const env = envOf({
    OPENAI_API_KEY: "k1",
    OPENAI_BASE_URL: server.url,
    OPENAI_COMPATIBLE_BASE_URL: server.url,
    ANTHROPIC_API_KEY: "k2",
    ANTHROPIC_BASE_URL: `http://${host}`,
    OLLAMA_HOST: host,
  });
  const registry = new ProviderRegistry();
  const paths: string[] = [];
  for (const model of ["openai:a", "openai-compatible:b", "ollama:llama3.2:3b", "anthropic:c"]) {
    const client = registry.resolve(model, { env });
    const turn = await client.complete({ messages: [{ role: "user", content: "ping" }], tools: [] });
    assert.equal(turn.text, "Echo: ping");
    paths.push(`${server.requests.at(-1)!.path} ${server.requests.at(-1)!.body.model}`);
  }
  assert.deepEqual(paths, [
    "/v1/responses a",
    "/v1/chat/completions b",
    "/v1/chat/completions llama3.2:3b",
    "/v1/messages c",
  ]);
});

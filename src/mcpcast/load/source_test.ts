import assert from "node:assert/strict";
import { join } from "node:path";
import { envOf, localServer, tempDir } from "../_test_parse.ts";
import { McpcastError } from "../errors.ts";
import { loadSpec } from "./source.ts";

const SPEC = { openapi: "3.0.3", info: { title: "Demo", version: "1" }, paths: { "/a": { get: {} } } };

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<string> {
  let message = "";
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof McpcastError, String(error));
    assert.match(error.message, pattern);
    message = error.message;
    return true;
  });
  return message;
}

Deno.test("an object source is checked and copied, with no label and no spec URL", async () => {
  const source = { ...SPEC, info: { title: "Demo\x1b[2J", version: "1" } };
  const loaded = await loadSpec(source, { env: envOf() });
  assert.deepEqual(loaded, { document: { ...SPEC, info: { title: "Demo[2J", version: "1" } } });
  assert.equal(source.info.title, "Demo\x1b[2J");
});

Deno.test("inline JSON and YAML text is labelled <inline>", async () => {
  const json = await loadSpec(`  ${JSON.stringify(SPEC)}`, { env: envOf() });
  assert.deepEqual(json, { document: SPEC, sourceLabel: "<inline>" });
  const yaml = await loadSpec(
    "openapi: 3.0.3\ninfo: {title: Demo, version: '1'}\npaths:\n  /a: {get: {}}\n",
    {
      env: envOf(),
    },
  );
  assert.deepEqual(yaml, { document: SPEC, sourceLabel: "<inline>" });
  const swagger = await loadSpec("swagger: '2.0'\npaths: {}\n", { env: envOf() });
  assert.deepEqual(swagger.document, { swagger: "2.0", paths: {} });
});

Deno.test("a file path is read and labelled as given, with ~ expanded from HOME", async () => {
  await using tmp = await tempDir();
  await Deno.writeTextFile(join(tmp.path, "spec.yaml"), "openapi: 3.0.3\npaths: {}\n");
  const direct = await loadSpec(join(tmp.path, "spec.yaml"), { env: envOf() });
  assert.deepEqual(direct, {
    document: { openapi: "3.0.3", paths: {} },
    sourceLabel: join(tmp.path, "spec.yaml"),
    path: join(tmp.path, "spec.yaml"),
    bytes: 25,
  });
  const home = await loadSpec("~/spec.yaml", { env: envOf({ HOME: tmp.path }) });
  assert.equal(home.sourceLabel, "~/spec.yaml");
  assert.equal(home.path, join(tmp.path, "spec.yaml"));
  assert.deepEqual(home.document, { openapi: "3.0.3", paths: {} });
});

Deno.test("anything else must be an existing file", async () => {
  await rejectsWith(
    loadSpec("./does/not/exist.yaml", { env: envOf() }),
    /^spec not found: \.\/does\/not\/exist\.yaml \(expected a file path, URL, or inline document\)$/,
  );
  await using tmp = await tempDir();
  await rejectsWith(loadSpec(tmp.path, { env: envOf() }), /^spec not found: /);
  const message = await rejectsWith(
    loadSpec("ftp://bob:hunter2@files.example/spec.yaml", { env: envOf() }),
    /not found/,
  );
  assert.doesNotMatch(message, /hunter2|bob/);
});

Deno.test("a file or inline text over MCPCAST_MAX_SPEC_BYTES is refused", async () => {
  await using tmp = await tempDir();
  const path = join(tmp.path, "big.json");
  await Deno.writeTextFile(path, JSON.stringify({ ...SPEC, pad: "x".repeat(200) }));
  const env = envOf({ MCPCAST_MAX_SPEC_BYTES: "100" });
  await rejectsWith(loadSpec(path, { env }), /is larger than 100 bytes \(MCPCAST_MAX_SPEC_BYTES\)$/);
  await rejectsWith(
    loadSpec(`{"pad": "${"é".repeat(60)}"}`, { env }),
    /^spec <inline> is larger than 100 bytes/,
  );
  await rejectsWith(loadSpec(SPEC, { env: envOf({ MCPCAST_MAX_SPEC_NODES: "x" }) }), /must be an integer/);
});

Deno.test("a URL spec is fetched with Basic auth and its query, and recorded by its public URL", async () => {
  await using server = await localServer(() => Response.json(SPEC));
  const port = server.origin.split(":").pop();
  const loaded = await loadSpec(`HTTP://bob:hunter2@127.0.0.1:${port}/v1/spec.json?api_key=k123#frag`, {
    env: envOf(),
  });
  assert.deepEqual(loaded, {
    document: SPEC,
    sourceLabel: `http://127.0.0.1:${port}/v1/spec.json`,
    specUrl: `http://127.0.0.1:${port}/v1/spec.json`,
    bytes: JSON.stringify(SPEC).length,
  });
  const request = server.requests[0];
  assert.equal(request.headers.get("authorization"), `Basic ${btoa("bob:hunter2")}`);
  assert.equal(new URL(request.url).searchParams.get("api_key"), "k123");
});

Deno.test("a download over the byte cap is refused, by Content-Length or by the bytes streamed", async () => {
  const body = JSON.stringify({ ...SPEC, pad: "x".repeat(5_000) });
  await using server = await localServer((request) => {
    if (new URL(request.url).pathname === "/declared") return new Response(body);
    const bytes = new TextEncoder().encode(body);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 500) controller.enqueue(bytes.slice(i, i + 500));
        controller.close();
      },
    });
    return new Response(stream);
  });
  const env = envOf({ MCPCAST_MAX_SPEC_BYTES: "1000" });
  const secret = server.origin.replace("http://", "http://bob:hunter2@");
  for (const path of ["/declared", "/streamed"]) {
    const message = await rejectsWith(
      loadSpec(`${secret}${path}?api_key=k123`, { env }),
      new RegExp(`^spec ${server.origin}${path} is larger than 1000 bytes \\(MCPCAST_MAX_SPEC_BYTES\\)$`),
    );
    assert.doesNotMatch(message, /hunter2|k123/);
  }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new Uint8Array(400).fill(32));
    },
  });
  await rejectsWith(
    loadSpec("https://api.example.com/endless.json", {
      env,
      fetch: () => Promise.resolve(new Response(stream)),
    }),
    /^spec https:\/\/api\.example\.com\/endless\.json is larger than 1000 bytes/,
  );
});

Deno.test("a download slower than MCPCAST_FETCH_SECONDS is refused on the wall clock", async () => {
  let timer: ReturnType<typeof setInterval> | undefined;
  await using server = await localServer(() => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"openapi": "3.0.3", "pad": "'));
        timer = setInterval(() => {
          sent += 1;
          if (sent > 40) {
            clearInterval(timer);
            controller.enqueue(new TextEncoder().encode('"}'));
            controller.close();
          } else {
            controller.enqueue(new TextEncoder().encode("x"));
          }
        }, 50);
      },
      cancel() {
        clearInterval(timer);
      },
    });
    return new Response(stream);
  });
  const started = performance.now();
  const message = await rejectsWith(
    loadSpec(`${server.origin.replace("//", "//bob:hunter2@")}/slow.json?api_key=k123`, {
      env: envOf({ MCPCAST_FETCH_SECONDS: "0.4" }),
    }),
    new RegExp(
      `^downloading spec ${server.origin}/slow\\.json took longer than 0\\.4 s \\(MCPCAST_FETCH_SECONDS\\)$`,
    ),
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 350 && elapsed < 1_900, `took ${elapsed} ms`);
  assert.doesNotMatch(message, /hunter2|k123/);
  clearInterval(timer);
});

Deno.test("HTTP and network errors name only the public URL", async () => {
  await using server = await localServer(() => new Response("nope", { status: 404 }));
  const secretOrigin = server.origin.replace("//", "//bob:hunter2@");
  const status = await rejectsWith(
    loadSpec(`${secretOrigin}/missing.json?api_key=k123`, { env: envOf() }),
    new RegExp(`^could not download spec ${server.origin}/missing\\.json: HTTP 404$`),
  );
  assert.doesNotMatch(status, /hunter2|k123/);
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const network = await rejectsWith(
    loadSpec(`http://bob:hunter2@127.0.0.1:${closedPort}/spec.json?api_key=k123`, { env: envOf() }),
    new RegExp(`^could not download spec http://127\\.0\\.0\\.1:${closedPort}/spec\\.json: `),
  );
  assert.doesNotMatch(network, /hunter2|k123/);
});

Deno.test("a cancelled download rethrows the caller's reason", async () => {
  const controller = new AbortController();
  const reason = new Error("user cancelled");
  const fakeFetch: typeof fetch = () => {
    setTimeout(() => controller.abort(reason), 10);
    return new Promise<Response>(() => {});
  };
  await assert.rejects(
    loadSpec("https://api.example.com/spec.json", {
      env: envOf(),
      fetch: fakeFetch,
      signal: controller.signal,
    }),
    (error: unknown) => error === reason,
  );
});

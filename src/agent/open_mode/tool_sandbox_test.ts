import assert from "node:assert/strict";
import { MAX_TOOL_CODE_CHARS, runSandboxed, type SandboxOutcome } from "./tool_sandbox.ts";

function errorOf(outcome: SandboxOutcome): string {
  assert.equal(outcome.ok, false, `expected an error, got ${JSON.stringify(outcome)}`);
  return (outcome as { error: string }).error;
}

Deno.test("a sandboxed tool takes JSON arguments and answers JSON (TypeScript, async)", async () => {
  const code = "export default async function (args: { a: number; b: number }) {\n" +
    "  await Promise.resolve();\n  return { sum: args.a + args.b, list: [args.a] };\n}";
  assert.deepEqual(await runSandboxed(code, { a: 2, b: 3 }), { ok: true, json: '{"sum":5,"list":[2]}' });
  assert.deepEqual(await runSandboxed("export default () => undefined;", {}), { ok: true, json: "null" });
});

Deno.test("a sandboxed tool cannot read a file", async () => {
  const file = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(file, "hidden");
    const code = `export default () => Deno.readTextFileSync(${JSON.stringify(file)});`;
    assert.match(errorOf(await runSandboxed(code, {})), /^NotCapable: Requires read access/);
    const viaNode = `export default async () => (await import("node:fs")).readFileSync(${
      JSON.stringify(file)
    }, "utf8");`;
    assert.match(errorOf(await runSandboxed(viaNode, {})), /^NotCapable: Requires read access/);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("a sandboxed tool cannot reach the network, by fetch or by import", async () => {
  const hits: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    hits.push(new URL(request.url).pathname);
    return new Response("export default 1;", { headers: { "content-type": "application/javascript" } });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const fetching = `export default async () => (await fetch("${base}/fetch")).text();`;
  assert.match(
    errorOf(await runSandboxed(fetching, {})),
    /^NotCapable: Requires net access to "127\.0\.0\.1:/,
  );
  const importing = `import x from "${base}/static.js";\nexport default () => x;`;
  assert.match(errorOf(await runSandboxed(importing, {})), /Requires import access to "127\.0\.0\.1:/);
  const dynamic = `export default async () => (await import("${base}/dynamic.js")).default;`;
  assert.match(errorOf(await runSandboxed(dynamic, {})), /Requires import access/);
  assert.deepEqual(hits, []);
});

Deno.test("a sandboxed tool cannot read the environment or start programs", async () => {
  assert.match(
    errorOf(await runSandboxed('export default () => Deno.env.get("HOME");', {})),
    /^NotCapable: Requires env access/,
  );
  assert.match(
    errorOf(await runSandboxed('export default () => new Deno.Command("/bin/true").output();', {})),
    /^NotCapable: Requires run access/,
  );
  assert.match(
    errorOf(await runSandboxed("export default () => Deno.dlopen('libc.so.6', {});", {})),
    /^NotCapable: Requires ffi access/,
  );
});

Deno.test("a sandboxed tool cannot gain permissions through a worker, and cannot exhaust the runtime's memory", async () => {
  const worker = "export default () => new Promise((resolve, reject) => { const w = new Worker(" +
    "'data:text/javascript,self.postMessage(Deno.readTextFileSync(\"/etc/hostname\"))', " +
    "{ type: 'module', deno: { permissions: { read: true } } }); w.onmessage = (e) => resolve(e.data); " +
    "w.onerror = (e) => { e.preventDefault(); reject(new Error(e.message)); }; });";
  errorOf(await runSandboxed(worker, {}));
  const hog =
    "export default () => { const keep = []; for (;;) keep.push(new Array(1e6).fill(Math.random())); };";
  assert.match(
    errorOf(await runSandboxed(hog, {}, { timeoutMs: 20_000 })),
    /^the tool ran out of memory \(128 MB\) and was stopped$/,
  );
  const npm = 'export default async () => (await import("npm:zod")).z ? 1 : 0;';
  assert.match(errorOf(await runSandboxed(npm, {})), /--no-npm/);
});

Deno.test("an endless sandboxed tool is stopped at its time limit", async () => {
  const started = Date.now();
  const error = errorOf(await runSandboxed("export default () => { for (;;) {} };", {}, { timeoutMs: 300 }));
  assert.equal(error, "the tool took longer than 300 ms and was stopped");
  assert.ok(Date.now() - started < 5_000);
});

Deno.test("sandboxed code must export a default function, fit the size bound and answer short JSON", async () => {
  assert.equal(
    errorOf(await runSandboxed("export const x = 1;", {})),
    "the code must export a default function",
  );
  assert.match(errorOf(await runSandboxed("export default (", {})), /SyntaxError|failed/);
  const long = `export default () => 1; // ${"x".repeat(MAX_TOOL_CODE_CHARS)}`;
  assert.match(errorOf(await runSandboxed(long, {})), /longer than 20000 characters/);
  const big = "export default () => 'x'.repeat(100);";
  assert.equal(
    errorOf(await runSandboxed(big, {}, { maxOutputChars: 50 })),
    "the result is longer than 50 characters",
  );
  assert.equal(
    errorOf(await runSandboxed("export default () => { throw new RangeError('no'); };", {})),
    "RangeError: no",
  );
  assert.deepEqual(await runSandboxed("export default () => 1;", {}, { checkOnly: true }), {
    ok: true,
    json: "null",
  });
});

Deno.test("aborting a sandboxed call terminates it and rejects with the reason", async () => {
  const controller = new AbortController();
  const call = runSandboxed(
    "export default () => new Promise((resolve) => setTimeout(resolve, 10_000));",
    {},
    { signal: controller.signal },
  );
  setTimeout(() => controller.abort(new Error("stop")), 100);
  await assert.rejects(call, /stop/);
});

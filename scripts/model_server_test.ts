import assert from "node:assert/strict";
import { dirname, join } from "node:path";

const script = join(dirname(new URL(import.meta.url).pathname), "model_server.ts");

Deno.test("model server script serves the echo model until SIGTERM", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", script, "--port", "0"],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    const match = /^model server listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n$/.exec(text);
    assert.ok(match, text);
    const response = await fetch(`${match[1]}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "echo", messages: [{ role: "user", content: "hi" }] }),
    });
    assert.equal((await response.json()).choices[0].message.content, "Echo: hi");
    child.kill("SIGTERM");
    assert.equal((await child.status).code, 0);
  } finally {
    clearTimeout(timer);
    await reader.cancel();
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    await child.status;
  }
});

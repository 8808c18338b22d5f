import assert from "node:assert/strict";
import { docBlocks, missingOutput, proseCommand, shellSteps, tsExpected } from "./_doc_blocks.ts";

const PAGE = `# Title

Start it:

<!-- run: background until "listening on" -->

\`\`\`sh
deno task start
# listening on http://127.0.0.1:9100
\`\`\`

## Next

Saved as \`check.ts\` and run with \`FOO=1 deno run --allow-net check.ts\`:

\`\`\`ts
console.log(1 + 1); // 2
\`\`\`

\`\`\`json
{ "ignored": true }
\`\`\`

<!-- run: file agents/a.agent.yaml -->

\`\`\`yaml
name: a
\`\`\`
`;

Deno.test("docBlocks reads sh and ts blocks, their annotation and the prose since the last heading", () => {
  const blocks = docBlocks("page.md", PAGE);
  assert.deepEqual(blocks.map((block) => [block.line, block.lang, block.annotation?.kind]), [
    [7, "sh", "background"],
    [16, "ts", undefined],
    [26, "yaml", "file"],
  ]);
  assert.deepEqual(blocks[0].annotation, { kind: "background", until: "listening on" });
  assert.equal(blocks[0].prose.trim(), "Start it:");
  assert.equal(
    blocks[1].prose.trim(),
    "Saved as `check.ts` and run with `FOO=1 deno run --allow-net check.ts`:",
  );
  assert.equal(blocks[2].code, "name: a");
});

Deno.test("docBlocks names the page and line of an annotation it does not know", () => {
  assert.throws(
    () => docBlocks("page.md", "<!-- run: sometimes -->\n\n```sh\ntrue\n```\n"),
    /page\.md:3: unknown annotation "run: sometimes"/,
  );
});

Deno.test("docBlocks reads a skip reason", () => {
  const [block] = docBlocks("page.md", "<!-- run: skip (needs an OpenAI API key) -->\n\n```sh\ntrue\n```\n");
  assert.deepEqual(block.annotation, { kind: "skip", reason: "needs an OpenAI API key" });
});

Deno.test("proseCommand finds the deno run code span and its file, with variables before it", () => {
  assert.deepEqual(proseCommand("Saved as `x.ts`, run with `A=1 deno run --allow-net x.ts`:"), {
    command: "A=1 deno run --allow-net x.ts",
    file: "x.ts",
  });
  assert.equal(proseCommand("Saved as `x.ts`:"), undefined);
});

Deno.test("shellSteps joins continued lines and open quotes, and takes the comments after a command as output", () => {
  const steps = shellSteps(`export A=1
curl -s -X POST http://x -d '{
  "a": 1}'
# {"ok":true}
deno run main.ts \\
  mcpcast spec.yaml
# mcpcast: spec → out
#   3 tools kept
cd out   # it's here

# a remark, not output
true`);
  assert.deepEqual(steps, [
    { command: "export A=1", expected: [] },
    { command: `curl -s -X POST http://x -d '{\n  "a": 1}'`, expected: ['{"ok":true}'] },
    {
      command: "deno run main.ts \\\n  mcpcast spec.yaml",
      expected: ["mcpcast: spec → out", "  3 tools kept"],
    },
    { command: "cd out   # it's here", expected: [] },
    { command: "true", expected: [] },
  ]);
});

Deno.test("tsExpected takes the trailing comment of each console.log line", () => {
  assert.deepEqual(tsExpected('const a = 1; // not output\nconsole.log(a); // 1\nconsole.log("x");'), ["1"]);
});

Deno.test("missingOutput matches documented lines in order, with … for any text and any run of spaces", () => {
  const output =
    'agentry:   listening on http://127.0.0.1:9100\n{"name":"r","process_id":"p-1","state":"running"}';
  assert.equal(
    missingOutput(
      ["agentry: listening on http://127.0.0.1:9100", '{"name":"r",…,"state":"running"}'],
      output,
    ),
    undefined,
  );
  assert.equal(missingOutput(['"state":"running"', "listening on …"], output), "listening on …");
  assert.equal(missingOutput(['{"name":"r","state":"running"}'], output), '{"name":"r","state":"running"}');
  assert.equal(missingOutput(["a (b) [c] $d"], "x a (b) [c] $d y"), undefined);
});

import assert from "node:assert/strict";
import { checkPage, githubSlug, type LinkSources, markdownLinks, pageAnchors } from "./check_links.ts";

/** Sources over an in-memory project: file paths to page texts ("" for files that are not pages). */
function project(files: Record<string, string>): LinkSources {
  const paths = Object.keys(files);
  return {
    exists: (path) => path in files || paths.some((file) => file.startsWith(`${path}/`)),
    readPage: (path) => files[path],
  };
}

Deno.test("headings get GitHub's anchors: lower case, punctuation and code marks dropped", () => {
  assert.equal(githubSlug("`agentry serve`"), "agentry-serve");
  assert.equal(githubSlug("`trigger_delivery`"), "trigger_delivery");
  assert.equal(githubSlug("`servers.<name>` reached over HTTP"), "serversname-reached-over-http");
  assert.equal(githubSlug("mcpcast: OpenAPI → MCP server"), "mcpcast-openapi--mcp-server");
  assert.equal(githubSlug("Errors *tool* clients see"), "errors-tool-clients-see");
  assert.equal(githubSlug("[Runtime](docs/x.md) and _the_ API"), "runtime-and-the-api");
});

Deno.test("repeated headings are numbered and headings inside code blocks are not anchors", () => {
  const anchors = pageAnchors('# Notes\n\n## Notes\n\n```md\n## Hidden\n```\n\n<a id="custom"></a>\n');
  assert.deepEqual([...anchors].sort(), ["custom", "notes", "notes-1"]);
});

Deno.test("links are found in prose and reference definitions, never in code", () => {
  const links = markdownLinks(
    "See [a](a.md) and ![b](<b c.png>).\n`[not](x.md)`\n\n```\n[nor](y.md)\n```\n[ref]: docs/z.md#top\n",
  );
  assert.deepEqual(links, [
    { line: 1, target: "a.md" },
    { line: 1, target: "b c.png" },
    { line: 7, target: "docs/z.md#top" },
  ]);
});

Deno.test("a missing file, a missing anchor and a link out of the project are reported", () => {
  const sources = project({
    "README.md": "",
    "docs/mcp.md": "# MCP\n\n## Middleware\n",
    "bench/README.md": "",
  });
  const page = [
    "# Docs",
    "[ok](mcp.md#middleware) [ok](../README.md) [ok](#docs) [ok](https://example.com/#x) [ok](../bench/)",
    "[gone](gone.md)",
    "[bad anchor](mcp.md#serving)",
    "[bad local](#nowhere)",
    "[outside](../../etc/passwd)",
  ].join("\n");
  const problems = checkPage("docs/index.md", page, sources);
  assert.deepEqual(problems.map((p) => [p.line, p.target, p.reason]), [
    [3, "gone.md", "no file docs/gone.md"],
    [4, "mcp.md#serving", "no heading #serving in docs/mcp.md"],
    [5, "#nowhere", "no heading #nowhere in docs/index.md"],
    [6, "../../etc/passwd", "points outside the project"],
  ]);
});

Deno.test("the project's own markdown has no broken relative links", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", new URL("./check_links.ts", import.meta.url).pathname],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
});

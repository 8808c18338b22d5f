import assert from "node:assert/strict";
import { didYouMean, suggest } from "./suggest.ts";

const FLAGS = ["--host", "--port", "--token", "--no-token", "--data-dir", "--manifests", "--json", "--help"];

Deno.test("suggest finds a flag within two edits, counting a swap of neighbours as one", () => {
  assert.equal(suggest("--prot", FLAGS), "--port");
  assert.equal(suggest("--prt", FLAGS), "--port");
  assert.equal(suggest("--data-dri", FLAGS), "--data-dir");
  assert.equal(suggest("--mainfests", FLAGS), "--manifests");
  assert.equal(suggest("--jsno", FLAGS), "--json");
});

Deno.test("suggest takes a unique prefix and refuses an ambiguous one", () => {
  assert.equal(suggest("--man", FLAGS), "--manifests");
  assert.equal(suggest("mcp", ["runtime", "audit", "serve", "mcpcast", "help"]), "mcpcast");
  assert.equal(suggest("--allow-env", ["--allow-env-var", "--allow-env-references"]), undefined);
});

Deno.test("suggest stays quiet when nothing is close, when two are equally close, or for one letter", () => {
  assert.equal(suggest("--bogus", FLAGS), undefined);
  assert.equal(suggest("launch", ["runtime", "audit", "serve", "mcpcast", "help"]), undefined);
  assert.equal(suggest("--hos", ["--host", "--hose"]), undefined);
  assert.equal(suggest("--dort", ["--port", "--sort"]), undefined);
  assert.equal(suggest("-x", ["-h", "--help"]), undefined);
  assert.equal(suggest("--", FLAGS), undefined);
});

Deno.test("didYouMean words the suggestion for a message, or adds nothing", () => {
  assert.equal(didYouMean("serv", ["runtime", "serve"]), "; did you mean serve?");
  assert.equal(didYouMean("launch", ["runtime", "serve"]), "");
});

import assert from "node:assert/strict";
import {
  API_NAME_PATTERN,
  groupFor,
  objectKey,
  RESERVED_TOOL_NAMES,
  TOOL_NAME_PATTERN,
  toolNameFor,
  toolNameProblem,
} from "./names.ts";
import { GITHUB_SPEC_PATH, githubOperations, githubSpecPresent } from "./_test_github_spec.ts";

const NONE: ReadonlySet<string> = new Set();

/** Names for `ids` in order, each added to the taken set as a planner would. */
function namesFor(ids: readonly string[]): string[] {
  const taken = new Set<string>();
  return ids.map((id) => {
    const name = toolNameFor(id, taken);
    taken.add(name);
    return name;
  });
}

Deno.test("toolNameFor turns camelCase and acronyms into snake case", () => {
  assert.equal(toolNameFor("getPetById", NONE), "get_pet_by_id");
  assert.equal(toolNameFor("getHTMLPage", NONE), "get_html_page");
  assert.equal(toolNameFor("listAPIs", NONE), "list_apis");
  assert.equal(toolNameFor("getV2Users", NONE), "get_v2_users");
});

Deno.test("toolNameFor replaces other characters with one underscore, collapsed and trimmed", () => {
  assert.equal(toolNameFor("repos/get-branch", NONE), "repos_get_branch");
  assert.equal(toolNameFor("__Get--Pet__", NONE), "get_pet");
  assert.equal(toolNameFor("créerPet", NONE), "cr_er_pet");
  assert.equal(toolNameFor("a.b c", NONE), "a_b_c");
});

Deno.test("toolNameFor names an empty id operation and prefixes a leading digit with op_", () => {
  assert.equal(toolNameFor("", NONE), "operation");
  assert.equal(toolNameFor("!!!", NONE), "operation");
  assert.equal(toolNameFor("2fa-enable", NONE), "op_2fa_enable");
  assert.equal(toolNameFor("_9", NONE), "op_9");
});

Deno.test("toolNameFor cuts to 64 characters without leaving a trailing underscore", () => {
  assert.equal(toolNameFor("a".repeat(80), NONE), "a".repeat(64));
  assert.equal(toolNameFor(`${"a".repeat(63)}_bcd`, NONE), "a".repeat(63));
});

Deno.test("toolNameFor suffixes reserved names and JavaScript reserved words with _op", () => {
  assert.equal(toolNameFor("delete", NONE), "delete_op");
  assert.equal(toolNameFor("Import", NONE), "import_op");
  assert.equal(toolNameFor("server", NONE), "server_op");
  assert.equal(toolNameFor("approvals_list", NONE), "approvals_list_op");
  assert.equal(toolNameFor("list", NONE), "list"); // Python builtins are ordinary identifiers in TypeScript
  assert.equal(toolNameFor("type", NONE), "type");
});

Deno.test("toolNameFor makes names unique with _2, _3 within the 64-character cap", () => {
  assert.deepEqual(namesFor(["getPet", "get_pet", "GetPet", "get_pet_2"]), [
    "get_pet",
    "get_pet_2",
    "get_pet_3",
    "get_pet_2_2",
  ]);
  const long = namesFor(["x".repeat(70), "x".repeat(70)]);
  assert.deepEqual(long, ["x".repeat(64), `${"x".repeat(62)}_2`]);
});

Deno.test("toolNameFor is deterministic and always valid, unreserved and unique", () => {
  let seed = 7;
  const chars = "aZ_-/ 9.{}é$Op";
  const ids = Array.from({ length: 2000 }, (_, i) => {
    let id = "";
    for (let n = 0; n < i % 90; n++) id += chars[(seed = (seed * 48271) % 2147483647) % chars.length];
    return id;
  });
  const names = namesFor([...ids, "delete", "server", "constructor"]);
  assert.deepEqual(namesFor([...ids, "delete", "server", "constructor"]), names);
  assert.equal(new Set(names).size, names.length);
  for (const name of names) assert.equal(toolNameProblem(name), undefined, name);
});

Deno.test("toolNameProblem refuses names off the pattern and reserved names without repeating them", () => {
  assert.equal(toolNameProblem("get_pet"), undefined);
  assert.equal(toolNameProblem("Get"), `must match ${TOOL_NAME_PATTERN.source}`);
  assert.equal(toolNameProblem("a".repeat(65)), `must match ${TOOL_NAME_PATTERN.source}`);
  assert.equal(toolNameProblem("_x"), `must match ${TOOL_NAME_PATTERN.source}`);
  for (const name of ["approvals_list", "approvals_decide", "server", "delete", "eval"]) {
    assert.ok(RESERVED_TOOL_NAMES.has(name), name);
    assert.match(toolNameProblem(name) ?? "", /^is reserved/);
  }
});

Deno.test("API_NAME_PATTERN accepts slugs and refuses the rest", () => {
  for (const name of ["petstore", "widgets-api", "1shop", "a_b", "x".repeat(63)]) {
    assert.ok(API_NAME_PATTERN.test(name), name);
  }
  for (const name of ["", "-api", "_api", "Pets", "pet store", "x".repeat(64)]) {
    assert.ok(!API_NAME_PATTERN.test(name), name);
  }
});

Deno.test("groupFor takes the first tag, cleaned to lower snake case", () => {
  assert.equal(groupFor({ tags: ["Pet Store", "other"], path: "/x" }), "pet_store");
  assert.equal(groupFor({ tags: ["codeScanning"], path: "/x" }), "code_scanning");
  assert.equal(groupFor({ tags: ["a".repeat(50)], path: "/x" }), "a".repeat(40));
});

Deno.test("groupFor falls back to the first path segment that is not empty, a placeholder or a version", () => {
  assert.equal(groupFor({ tags: [], path: "/v1/admin/purge" }), "admin");
  assert.equal(groupFor({ tags: [], path: "/{tenant}/V2/tickets" }), "tickets");
  assert.equal(groupFor({ tags: ["用户"], path: "/users" }), "users"); // a tag that cleans to nothing
});

Deno.test("groupFor prefixes a leading digit, suffixes reserved names and falls back to api", () => {
  assert.equal(groupFor({ tags: ["3d-models"], path: "/x" }), "g_3d_models");
  assert.equal(groupFor({ tags: ["Config"], path: "/x" }), "config_tools");
  assert.equal(groupFor({ tags: [], path: "/tools" }), "tools_tools");
  assert.equal(groupFor({ tags: ["delete"], path: "/x" }), "delete_tools");
  assert.equal(groupFor({ tags: [], path: "/" }), "api");
  assert.equal(groupFor({ tags: [], path: "/v1/{id}" }), "api");
});

Deno.test("objectKey writes identifiers bare, other names quoted and __proto__ computed", () => {
  assert.equal(objectKey("petId"), "petId");
  assert.equal(objectKey("$top"), "$top");
  assert.equal(objectKey("user-id"), '"user-id"');
  assert.equal(objectKey("1st"), '"1st"');
  assert.equal(objectKey('a"b'), '"a\\"b"');
  assert.equal(objectKey("__proto__"), '["__proto__"]');
  const literal = new Function(`return { ${objectKey("__proto__")}: 1, ${objectKey("user-id")}: 2 };`)();
  assert.deepEqual(Object.keys(literal), ["__proto__", "user-id"]);
});

Deno.test({
  name: "toolNameFor gives every GitHub REST operation a distinct valid name, deterministically",
  ignore: !githubSpecPresent(),
  async fn() {
    const ids = (await githubOperations()).map((o) => o.operationId);
    assert.ok(ids.length > 1000, `expected the full GitHub spec, got ${ids.length} operations`);
    const names = namesFor(ids);
    assert.deepEqual(namesFor(ids), names);
    assert.equal(new Set(names).size, ids.length);
    for (const name of names) assert.equal(toolNameProblem(name), undefined, name);
    // Distinct ids only collide where the 64-character cut makes them equal (GitHub has one pair:
    // orgs/custom-properties-for-repos-create-or-update-organization-definition[s]).
    const suffixed = ids.filter((id, i) => names[i] !== toolNameFor(id, NONE));
    assert.ok(suffixed.length <= 3, `${suffixed.length} names needed a suffix`);
    for (const id of suffixed) assert.equal(toolNameFor(id, NONE).length, 64, id);
  },
});

if (!githubSpecPresent()) {
  console.warn(`names_test: GitHub spec test skipped, ${GITHUB_SPEC_PATH} is missing`);
}

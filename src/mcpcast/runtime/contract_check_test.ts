import assert from "node:assert/strict";
import { checkRequest, type ContractDocument, type SentRequest } from "./contract_check.ts";

const CONTRACT: ContractDocument = {
  operations: {
    findPets: {
      method: "GET",
      path: "/pets/{kind}",
      parameters: [
        { name: "kind", in: "path", required: true, schema: { type: "string", enum: ["cat", "dog"] } },
        { name: "limit", in: "query", required: true, schema: { type: "integer", maximum: 100 } },
        { name: "tags", in: "query", required: false, schema: { type: "array", items: { type: "string" } } },
        { name: "X-Trace", in: "header", required: false, schema: { type: "string" } },
        {
          name: "ref",
          in: "query",
          required: false,
          schema: { oneOf: [{ type: "integer" }, { type: "boolean" }] },
        },
      ],
    },
    addPet: {
      method: "POST",
      path: "/pets",
      parameters: [],
      body: {
        required: true,
        content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
      },
    },
  },
  components: {
    schemas: { Pet: { type: "object", required: ["name"], properties: { name: { type: "string" } } } },
  },
};

function request(method: string, target: string, init: { body?: string; type?: string } = {}): SentRequest {
  const headers = new Headers(init.type ? { "content-type": init.type } : {});
  return { method, url: new URL(`http://127.0.0.1/api${target}`), headers, body: init.body ?? "" };
}

Deno.test("a request the spec allows has no problems (values coerced, base path ignored)", () => {
  assert.deepEqual(checkRequest(CONTRACT, "findPets", request("GET", "/pets/cat?limit=5&tags=a&tags=b")), []);
  const add = request("POST", "/pets", { body: '{"name":"rex"}', type: "application/json; charset=utf-8" });
  assert.deepEqual(checkRequest(CONTRACT, "addPet", add), []);
});

Deno.test("a parameter under the wrong name or location is missing, and an unknown query parameter is named", () => {
  const problems = checkRequest(CONTRACT, "findPets", request("GET", "/pets/cat?max=5"));
  assert.deepEqual(problems, [
    "query parameter 'limit' is required but was not sent",
    "query parameter 'max' is not in the spec",
  ]);
});

Deno.test("a parameter value outside its schema is a problem", () => {
  const problems = checkRequest(CONTRACT, "findPets", request("GET", "/pets/bird?limit=500"));
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.match(problems[0], /^path parameter 'kind' must be equal to one of the allowed values/);
  assert.match(problems[1], /^query parameter 'limit' must be <= 100/);
});

Deno.test("the body: required, content type, and schema through $ref", () => {
  assert.deepEqual(checkRequest(CONTRACT, "addPet", request("POST", "/pets")), [
    "the request body is required but none was sent",
  ]);
  const form = request("POST", "/pets", { body: "name=rex", type: "application/x-www-form-urlencoded" });
  assert.match(
    checkRequest(CONTRACT, "addPet", form)[0],
    /content type 'application\/x-www-form-urlencoded' is not one/,
  );
  const wrong = request("POST", "/pets", { body: '{"title":"rex"}', type: "application/json" });
  assert.deepEqual(checkRequest(CONTRACT, "addPet", wrong), ["body must have required property 'name'"]);
});

Deno.test("method and path are checked, ignored credential slots are not", () => {
  const problems = checkRequest(CONTRACT, "findPets", request("POST", "/animals/cat?limit=1&api_key=k"), {
    ignore: ["api_key"],
  });
  assert.deepEqual(problems, [
    "method POST, the spec says GET",
    "path /api/animals/cat does not fit /pets/{kind}",
    "path parameter 'kind' is required but was not sent",
  ]);
  assert.throws(() => checkRequest(CONTRACT, "nope", request("GET", "/")), /not in the contract/);
});

Deno.test("a parameter fitting several oneOf alternatives once coerced is the spec's ambiguity, not a problem", () => {
  assert.deepEqual(checkRequest(CONTRACT, "findPets", request("GET", "/pets/cat?limit=1&ref=42")), []);
  const none = checkRequest(CONTRACT, "findPets", request("GET", "/pets/cat?limit=1&ref=abc"));
  assert.ok(none.some((problem) => /must match exactly one schema in oneOf/.test(problem)), none.join("\n"));
});

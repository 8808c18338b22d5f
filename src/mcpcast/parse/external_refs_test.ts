import assert from "node:assert/strict";
import { join } from "node:path";
import { envOf, localServer, tempDir } from "../_test_parse.ts";
import { MAX_EXTERNAL_DOCUMENTS } from "./external_refs.ts";
import { parseSpec } from "./parse_spec.ts";
import type { Operation } from "../types.ts";

/** A spec whose operations post a body with the schema `$ref` given per operation id. */
function specWithBodies(refs: Record<string, string>): string {
  const paths = Object.entries(refs).map(([id, ref]) =>
    `  /${id}:\n    post:\n      operationId: ${id}\n      requestBody:\n        content:\n` +
    `          application/json:\n            schema: {$ref: '${ref}'}\n` +
    `      responses: {'200': {description: ok}}\n`
  );
  return `openapi: 3.0.3\ninfo: {title: Ext, version: '1'}\npaths:\n${paths.join("")}`;
}

const SCHEMAS = `components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: {type: string}
        owner: {$ref: '#/components/schemas/Owner'}
    Owner: {type: object, properties: {email: {type: string}}}
`;

function byId(operations: Operation[]): Record<string, Operation> {
  return Object.fromEntries(operations.map((operation) => [operation.operationId, operation]));
}

Deno.test("a sibling file's schema is followed only when external refs are enabled", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "api"));
  const spec = join(tmp.path, "api", "spec.yaml");
  await Deno.writeTextFile(spec, specWithBodies({ addPet: "schemas.yaml#/components/schemas/Pet" }));
  await Deno.writeTextFile(join(tmp.path, "api", "schemas.yaml"), SCHEMAS);

  const off = await parseSpec(spec, { env: envOf() });
  assert.equal(
    off.operations[0].unsupportedBody,
    "external $ref 'schemas.yaml#/components/schemas/Pet' is not supported; bundle the spec into one document",
  );

  const on = await parseSpec(spec, { env: envOf(), externalRefs: { allowHosts: [] } });
  const addPet = on.operations[0];
  assert.equal(addPet.unsupportedBody, undefined);
  assert.deepEqual(addPet.params.map((p) => `${p.name}${p.required ? "!" : ""}`), ["name!", "owner"]);
  assert.deepEqual(addPet.params.find((p) => p.name === "owner")?.schema, {
    type: "object",
    properties: { email: { type: "string" } },
  });
});

Deno.test("file refs that leave the spec's directory or are absolute are refused", async () => {
  await using tmp = await tempDir();
  await Deno.mkdir(join(tmp.path, "api"));
  await Deno.writeTextFile(join(tmp.path, "outside.yaml"), SCHEMAS);
  await Deno.writeTextFile(join(tmp.path, "api", "schemas.yaml"), SCHEMAS);
  await Deno.symlink(join(tmp.path, "outside.yaml"), join(tmp.path, "api", "link.yaml"));
  const spec = join(tmp.path, "api", "spec.yaml");
  await Deno.writeTextFile(
    spec,
    specWithBodies({
      escape: "../outside.yaml#/components/schemas/Pet",
      absolute: `${join(tmp.path, "api", "schemas.yaml")}#/components/schemas/Pet`,
      link: "link.yaml#/components/schemas/Pet",
      missing: "nothing.yaml#/components/schemas/Pet",
    }),
  );
  const parsed = await parseSpec(spec, { env: envOf(), externalRefs: { allowHosts: [] } });
  const ops = byId(parsed.operations);
  assert.equal(
    ops.escape.unsupportedBody,
    "external $ref '../outside.yaml#/components/schemas/Pet' is not followed: it points outside the spec's directory",
  );
  assert.match(ops.absolute.unsupportedBody!, /is not followed: absolute file references are not followed$/);
  assert.match(ops.link.unsupportedBody!, /^external \$ref 'link\.yaml#.*outside the spec's directory$/);
  assert.equal(
    ops.missing.unsupportedBody,
    "external $ref 'nothing.yaml#/components/schemas/Pet' is not followed: its document could not be loaded " +
      "(spec not found: nothing.yaml (expected a file path, URL, or inline document))",
  );
});

Deno.test("http refs load from allowed hosts only, within the spec limits, naming no credentials", async () => {
  const big = JSON.stringify({ Pet: { type: "object", description: "x".repeat(5000) } });
  await using server = await localServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/pet.json") {
      return Response.json({ Pet: { type: "object", properties: { name: { type: "string" } } } });
    }
    if (path === "/big.json") return new Response(big);
    if (path === "/hop") {
      return Response.redirect(`http://localhost:${new URL(request.url).port}/pet.json`, 302);
    }
    return new Response("no", { status: 404 });
  });
  const port = new URL(server.origin).port;
  const spec = specWithBodies({
    allowed: `${server.origin}/pet.json#/Pet`,
    otherHost: `http://user:s3cret@localhost:${port}/pet.json?token=t0ken#/Pet`,
    tooLarge: `${server.origin}/big.json#/Pet`,
    redirect: `${server.origin}/hop#/Pet`,
  });
  const parsed = await parseSpec(spec, {
    env: envOf({ MCPCAST_MAX_SPEC_BYTES: "4000" }),
    externalRefs: { allowHosts: [`127.0.0.1:${port}`] },
  });
  const ops = byId(parsed.operations);
  assert.equal(ops.allowed.unsupportedBody, undefined);
  assert.deepEqual(ops.allowed.params.map((p) => p.name), ["name"]);
  assert.equal(
    ops.otherHost.unsupportedBody,
    `external $ref 'http://localhost:${port}/pet.json' is not followed: host localhost:${port} is not an allowed host`,
  );
  assert.ok(!JSON.stringify(parsed).includes("s3cret") && !JSON.stringify(parsed).includes("t0ken"));
  assert.match(
    ops.tooLarge.unsupportedBody!,
    /could not be loaded \(spec .*big\.json is larger than 4000 bytes/,
  );
  assert.match(ops.redirect.unsupportedBody!, /redirected to a host that is not allowed/);
  assert.equal(server.requests.filter((r) => new URL(r.url).pathname === "/pet.json").length, 1);
});

Deno.test("relative refs of a URL spec resolve against its URL; inline specs need absolute URLs", async () => {
  await using server = await localServer((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/v1/spec.yaml") {
      return new Response(specWithBodies({ addPet: "schemas.yaml#/components/schemas/Pet" }));
    }
    if (path === "/v1/schemas.yaml") return new Response(SCHEMAS);
    return new Response("no", { status: 404 });
  });
  const allow = { allowHosts: [new URL(server.origin).host] };
  const fromUrl = await parseSpec(`${server.origin}/v1/spec.yaml`, { env: envOf(), externalRefs: allow });
  assert.deepEqual(fromUrl.operations[0].params.map((p) => p.name), ["name", "owner"]);
  const inline = await parseSpec(
    specWithBodies({
      absolute: `${server.origin}/v1/schemas.yaml#/components/schemas/Pet`,
      relative: "x.yaml#/X",
    }),
    { env: envOf(), externalRefs: allow },
  );
  const ops = byId(inline.operations);
  assert.deepEqual(ops.absolute.params.map((p) => p.name), ["name", "owner"]);
  assert.match(ops.relative.unsupportedBody!, /^external \$ref 'x\.yaml#\/X' is not supported; bundle/);
});

Deno.test("external documents referring to each other load once each and resolution terminates", async () => {
  const docs: Record<string, unknown> = {
    "/a.json": { A: { type: "object", properties: { b: { $ref: "b.json#/B" }, self: { $ref: "#/A" } } } },
    "/b.json": { B: { type: "object", properties: { a: { $ref: "a.json#/A" } } } },
  };
  await using server = await localServer((request) => {
    const doc = docs[new URL(request.url).pathname];
    return doc === undefined ? new Response("no", { status: 404 }) : Response.json(doc);
  });
  const parsed = await parseSpec(specWithBodies({ cycle: `${server.origin}/a.json#/A` }), {
    env: envOf(),
    externalRefs: { allowHosts: [new URL(server.origin).host] },
  });
  const cycle = parsed.operations[0];
  assert.equal(cycle.unsupportedBody, undefined);
  assert.deepEqual(cycle.params.map((p) => p.name), ["b", "self"]);
  assert.deepEqual(server.requests.map((r) => new URL(r.url).pathname).sort(), ["/a.json", "/b.json"]);
});

Deno.test(`at most ${MAX_EXTERNAL_DOCUMENTS} external documents are loaded`, async () => {
  await using server = await localServer((request) => {
    const n = Number(new URL(request.url).pathname.slice(1).replace(".json", ""));
    return Response.json({ S: { type: "object", properties: { next: { $ref: `${n + 1}.json#/S` } } } });
  });
  const parsed = await parseSpec(specWithBodies({ chain: `${server.origin}/0.json#/S` }), {
    env: envOf(),
    externalRefs: { allowHosts: [new URL(server.origin).host] },
  });
  assert.equal(parsed.operations[0].unsupportedBody, undefined);
  assert.equal(server.requests.length, MAX_EXTERNAL_DOCUMENTS);
});

Deno.test("the external documents share one byte budget, MCPCAST_MAX_SPEC_BYTES", async () => {
  // Each document is 400 bytes: two fit a 1000-byte budget, the third passes it, the fourth is not read.
  await using server = await localServer(() => {
    const doc = { S: { type: "object", description: "" } };
    doc.S.description = "d".repeat(400 - JSON.stringify(doc).length);
    return new Response(JSON.stringify(doc), { headers: { "content-type": "application/json" } });
  });
  const refs = Object.fromEntries(["a", "b", "c", "d"].map((id) => [id, `${server.origin}/${id}.json#/S`]));
  const parsed = await parseSpec(specWithBodies(refs), {
    env: envOf({ MCPCAST_MAX_SPEC_BYTES: "1000" }),
    externalRefs: { allowHosts: [new URL(server.origin).host] },
  });
  const ops = byId(parsed.operations);
  assert.equal(ops.a.unsupportedBody, undefined);
  assert.equal(ops.b.unsupportedBody, undefined);
  for (const id of ["c", "d"]) {
    assert.equal(
      ops[id].unsupportedBody,
      `external $ref '${server.origin}/${id}.json' is not followed: the external documents together are ` +
        "larger than 1000 bytes (MCPCAST_MAX_SPEC_BYTES)",
    );
  }
  assert.deepEqual(server.requests.map((request) => new URL(request.url).pathname), [
    "/a.json",
    "/b.json",
    "/c.json",
  ]);
});

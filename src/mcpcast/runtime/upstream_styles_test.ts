import assert from "node:assert/strict";
import { parseSpec } from "../parse/mod.ts";
import { buildPlan, loadPlan, type McpcastPlan, savePlan } from "../plan/mod.ts";
import { toolOf } from "./_test_runtime.ts";
import { Upstream } from "./upstream.ts";

const SPECS = new URL("../../../tests/fixtures/specs/", import.meta.url);

/** What the upstream saw: the raw request target, headers and body text. */
interface Raw {
  method: string;
  target: string;
  contentType: string | null;
  headers: Headers;
  body: string;
}

/** An upstream on 127.0.0.1 that records each request as it arrived and answers 201 `{}`. */
function recordingUpstream(): { origin: Promise<string>; seen: Raw[] } & AsyncDisposable {
  const seen: Raw[] = [];
  const listening = Promise.withResolvers<string>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => listening.resolve(`http://127.0.0.1:${port}`),
  }, async (request) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      target: url.pathname + url.search,
      contentType: request.headers.get("content-type"),
      headers: request.headers,
      body: await request.text(),
    });
    return Response.json({}, { status: 201 });
  });
  return { origin: listening.promise, seen, [Symbol.asyncDispose]: () => server.shutdown() };
}

async function planOf(file: string, baseUrl: string): Promise<McpcastPlan> {
  const spec = await parseSpec(new URL(file, SPECS).pathname);
  const built = buildPlan(spec, { profile: "full", auth: "none", baseUrl });
  // The generated project reads the plan file: the styles must survive being written and read back.
  const plan = loadPlan(savePlan(built));
  assert.deepEqual(plan, built);
  return plan;
}

Deno.test("a plan generated from an OpenAPI 3.1 spec sends every declared style over real HTTP", async () => {
  await using upstream = recordingUpstream();
  const base = `${await upstream.origin}/v1`;
  const plan = await planOf("styles_oas31.yaml", base);
  const client = new Upstream(plan.api, { tools: plan.tools, env: () => undefined });
  const names = plan.tools.map((tool) => tool.name).sort();
  assert.equal(names.length, 3, names.join(", "));
  const [getItems, submitForm, uploadFile] = ["getItems", "submitForm", "uploadFile"].map((id) =>
    plan.tools.find((tool) => tool.routes[0].operation_id === id)!
  );

  await client.call(toolOf(plan, getItems.name), {
    ids: [3, 4],
    tags: ["a", "b"],
    point: { x: 1, y: 2 },
    coords: ["u", "v"],
    fields: ["name", "size"],
    color: { R: 100, G: 200 },
    filter: { state: "open" },
    ids_piped: [1, 2],
    words: ["big", "red"],
    next: "/page/2",
    "X-Tags": ["a", "b"],
    "X-Point": { x: 1, y: 2 },
    session: "s1",
    langs: ["en", "fr"],
  });
  assert.equal(
    upstream.seen[0].target,
    "/v1/items/3,4/tags.a,b/atx=1,y=2/m;coords=u;coords=v" +
      "?fields=name,size&R=100&G=200&filter%5Bstate%5D=open&ids_piped=1%7C2&words=big%20red&next=/page/2",
  );
  assert.equal(upstream.seen[0].headers.get("x-tags"), "a,b");
  assert.equal(upstream.seen[0].headers.get("x-point"), "x=1,y=2");
  assert.equal(upstream.seen[0].headers.get("cookie"), "session=s1; langs=en,fr");

  await client.call(toolOf(plan, submitForm.name), {
    amount: 5,
    metadata: { order: "7" },
    tags: ["x", "y"],
    doc: { k: 1 },
  });
  assert.equal(upstream.seen[1].contentType, "application/x-www-form-urlencoded");
  assert.equal(
    upstream.seen[1].body,
    "amount=5&metadata%5Border%5D=7&tags=x,y&doc=%7B%22k%22%3A1%7D",
  );

  await client.call(toolOf(plan, uploadFile.name), {
    file: "col1,col2",
    meta: { k: 1 },
    labels: ["a", "b"],
    note: "# hi",
  });
  const sent = upstream.seen[2];
  const boundary = sent.contentType?.match(/^multipart\/form-data; boundary=(.+)$/)?.[1];
  assert.ok(boundary, `content type ${sent.contentType}`);
  const form = await new Response(sent.body, { headers: { "content-type": sent.contentType! } }).formData();
  const file = form.get("file");
  assert.ok(file instanceof File);
  assert.equal(file.type, "application/octet-stream");
  assert.equal(await file.text(), "col1,col2");
  assert.deepEqual(form.getAll("labels"), ["a", "b"]);
  assert.equal(form.get("note"), "# hi");
  assert.match(sent.body, /name="note"\r\nContent-Type: text\/markdown\r\n/);
  assert.match(sent.body, /name="meta"\r\nContent-Type: application\/json\r\n\r\n\{"k":1\}\r\n/);
});

Deno.test("a plan generated from a Swagger 2 spec sends each collectionFormat over real HTTP", async () => {
  await using upstream = recordingUpstream();
  const base = `${await upstream.origin}/v2`;
  const plan = await planOf("styles_swagger2.yaml", base);
  const client = new Upstream(plan.api, { tools: plan.tools, env: () => undefined });
  const search = plan.tools.find((tool) => tool.routes[0].operation_id === "search")!;
  const labels = plan.tools.find((tool) => tool.routes[0].operation_id === "addLabels")!;
  const list = ["a", "b"];
  await client.call(search, { ids: [1, 2], csv: list, ssv: list, tsv: list, pipes: list, multi: list });
  assert.equal(
    upstream.seen[0].target,
    "/v2/search/1,2?csv=a,b&ssv=a%20b&tsv=a%09b&pipes=a%7Cb&multi=a&multi=b",
  );
  await client.call(labels, { names: ["x", "y"], owner: "ann" });
  assert.equal(upstream.seen[1].body, "names=x%7Cy&owner=ann");
  assert.equal(upstream.seen[1].contentType, "application/x-www-form-urlencoded");
  const upload = plan.tools.find((tool) => tool.routes[0].operation_id === "uploadFile")!;
  await client.call(upload, { file: "bytes", caption: "a cat" });
  const sent = upstream.seen[2];
  const form = await new Response(sent.body, { headers: { "content-type": sent.contentType! } }).formData();
  const file = form.get("file");
  assert.ok(file instanceof File);
  assert.equal(await file.text(), "bytes");
  assert.equal(form.get("caption"), "a cat");
});

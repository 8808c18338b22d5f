import assert from "node:assert/strict";
import { CONSOLE_CSP, CONSOLE_PATH, consoleHandler } from "./mod.ts";
import { ASSETS } from "./_assets.ts";

const handler = consoleHandler();
const BASE = "http://127.0.0.1:9100";

function get(path: string, init: RequestInit = {}): Response {
  const answer = handler(new Request(`${BASE}${path}`, init));
  assert.ok(answer, `no answer for ${path}`);
  return answer;
}

Deno.test("GET / and /console redirect 302 to /console/", () => {
  for (const path of ["/", "/console"]) {
    const answer = get(path);
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get("location"), CONSOLE_PATH);
  }
});

Deno.test("the page, its script and styles are served with their types, the CSP and an ETag", async () => {
  const cases: [string, RegExp][] = [
    ["/console/", /^text\/html; charset=utf-8$/],
    ["/console/app.js", /^text\/javascript/],
    ["/console/app.css", /^text\/css/],
  ];
  for (const [path, type] of cases) {
    const answer = get(path);
    assert.equal(answer.status, 200, path);
    assert.match(answer.headers.get("content-type") ?? "", type, path);
    assert.equal(answer.headers.get("content-security-policy"), CONSOLE_CSP);
    assert.equal(answer.headers.get("x-content-type-options"), "nosniff");
    assert.equal(answer.headers.get("cache-control"), "no-cache");
    assert.match(answer.headers.get("etag") ?? "", /^"[0-9a-f]{20}"$/);
    assert.ok((await answer.text()).length > 100, path);
  }
  assert.match(CONSOLE_CSP, /default-src 'self'/);
  assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval/);
});

Deno.test("a matching If-None-Match answers 304; HEAD answers no body", async () => {
  const etag = get("/console/app.js").headers.get("etag") ?? "";
  assert.equal(get("/console/app.js", { headers: { "if-none-match": etag } }).status, 304);
  assert.equal(get("/console/app.js", { headers: { "if-none-match": `"other", W/${etag}` } }).status, 304);
  assert.equal(get("/console/app.js", { headers: { "if-none-match": '"other"' } }).status, 200);
  const head = get("/console/", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
});

Deno.test("other paths and methods are left to the API; unknown console files are 404", () => {
  assert.equal(handler(new Request(`${BASE}/api/v1/processes`)), undefined);
  assert.equal(handler(new Request(`${BASE}/console/`, { method: "POST" })), undefined);
  assert.equal(handler(new Request(`${BASE}/consoles`)), undefined);
  for (
    const path of [
      "/console/missing.js",
      "/console/../deno.json",
      "/console/toString",
      "/console/static/app.js",
    ]
  ) {
    const answer = handler(new Request(`${BASE}${path}`));
    assert.ok(answer === undefined || answer.status === 404, path);
  }
});

Deno.test("the page loads only embedded files, under 200 KB in all", () => {
  const html = ASSETS["index.html"].body;
  let total = 0;
  for (const asset of Object.values(ASSETS)) total += new TextEncoder().encode(asset.body).length;
  assert.ok(total < 200 * 1024, `${total} bytes`);
  const references = [...html.matchAll(/(?:src|href)="([^"#:]+)"/g)].map((m) => m[1]);
  for (const asset of Object.values(ASSETS).filter((a) => a.type.startsWith("text/javascript"))) {
    references.push(...[...asset.body.matchAll(/from "\.\/([^"]+)"/g)].map((m) => m[1]));
  }
  assert.ok(references.includes("app.js") && references.includes("app.css"));
  for (const reference of references) assert.ok(Object.hasOwn(ASSETS, reference), reference);
  assert.doesNotMatch(html, /<script>|<style>|\son[a-z]+=/, "no inline script or style");
  assert.doesNotMatch(Object.values(ASSETS).map((a) => a.body).join(""), /https?:\/\/(?!127\.0\.0\.1)/);
});

Deno.test("the page keeps the token in sessionStorage only, never in a URL or cookie", () => {
  const js = Object.entries(ASSETS).filter(([name]) => name.endsWith(".js")).map(([, a]) => a.body).join(
    "\n",
  );
  assert.match(js, /sessionStorage\.setItem/);
  assert.doesNotMatch(js, /localStorage|document\.cookie/);
  assert.match(js, /authorization/);
});

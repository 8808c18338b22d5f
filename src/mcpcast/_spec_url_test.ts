import assert from "node:assert/strict";
import { looksLikeHttpUrl, publicUrl, reduceUrls, specRequestTarget } from "./_spec_url.ts";

Deno.test("http and https URLs are recognised whatever the case of the scheme", () => {
  assert.equal(looksLikeHttpUrl("HTTPS://api.example.com/spec.json"), true);
  assert.equal(looksLikeHttpUrl("Http://127.0.0.1:8080/x"), true);
  assert.equal(looksLikeHttpUrl("ftp://example.com/spec.json"), false);
  assert.equal(looksLikeHttpUrl("./https/spec.json"), false);
});

Deno.test("the public URL keeps scheme, host, port and path and drops userinfo, query and fragment", () => {
  assert.equal(
    publicUrl("https://bob:hunter2@api.example.com:8443/v1/spec.json?api_key=s3cret#frag"),
    "https://api.example.com:8443/v1/spec.json",
  );
  assert.equal(publicUrl("not a url"), "<url>");
});

Deno.test("every URL token in a message is reduced to its public form", () => {
  const message = "error sending request for url (https://bob:pw@h.example/spec?api_key=k): refused; " +
    "see http://other.example/a?token=t.";
  const reduced = reduceUrls(message);
  assert.equal(
    reduced,
    "error sending request for url (https://h.example/spec): refused; see http://other.example/a.",
  );
});

Deno.test("a spec request sends userinfo as Basic auth and keeps the query, never the fragment", () => {
  const target = specRequestTarget("https://b%40b:p%3Aw@api.example.com/spec.yaml?api_key=k1#x");
  assert.equal(target.url, "https://api.example.com/spec.yaml?api_key=k1");
  assert.equal(target.authorization, `Basic ${btoa("b@b:p:w")}`);
  assert.equal(target.publicUrl, "https://api.example.com/spec.yaml");
  assert.equal(specRequestTarget("https://api.example.com/s").authorization, undefined);
});

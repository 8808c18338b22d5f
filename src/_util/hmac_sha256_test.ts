import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { HmacSha256 } from "./hmac_sha256.ts";

Deno.test("the precomputed HMAC equals node's HMAC-SHA256 for short, block-sized and long keys", () => {
  const body = new TextEncoder().encode(JSON.stringify({ order: 42, note: "été" }));
  for (const secret of ["k".repeat(16), "x".repeat(64), "long-".repeat(40), "clé-secrète-😀-123456"]) {
    const signer = new HmacSha256(secret);
    const expected = createHmac("sha256", secret).update(body).digest("hex");
    assert.equal(signer.digest(body).toString("hex"), expected, secret);
    assert.equal(signer.digest(body).toString("hex"), expected, "stable across calls");
    assert.equal(signer.hex(new TextDecoder().decode(body)), expected, "hex of the same text");
    assert.equal(signer.verify(`sha256=${expected}`, body), true);
    assert.equal(signer.verify(`sha256=${expected.toUpperCase()}`, body), true);
    assert.equal(
      signer.verify(`sha256=${expected.replace(/.$/, (c) => (c === "0" ? "1" : "0"))}`, body),
      false,
    );
    assert.equal(signer.verify(expected, body), false);
    assert.equal(signer.verify(null, body), false);
  }
});

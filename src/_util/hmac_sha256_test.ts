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

Deno.test("verify takes the prefix in any case and whitespace around, and refuses anything but 64 hex digits", () => {
  const signer = new HmacSha256("k".repeat(16));
  const body = new TextEncoder().encode('{"a":1}');
  const hex = createHmac("sha256", "k".repeat(16)).update(body).digest("hex");
  assert.equal(signer.verify(`  SHA256=${hex}\t`, body), true);
  assert.equal(signer.verify(`Sha256=${hex.toUpperCase()}`, body), true);
  const at = (i: number, c: string) => `sha256=${hex.slice(0, i)}${c}${hex.slice(i + 1)}`;
  // "İ" is U+0130: its low 7 bits are "0", so a decoder that masked the code alone would read a digit.
  for (const c of ["g", "G", " ", "İ", "\u0066\u0301".slice(1), "-"]) {
    assert.equal(signer.verify(at(0, c), body), false, `first digit ${JSON.stringify(c)}`);
    assert.equal(signer.verify(at(63, c), body), false, `last digit ${JSON.stringify(c)}`);
  }
  assert.equal(signer.verify(`sha256=${hex}0`, body), false, "65 digits");
  assert.equal(signer.verify(`sha256=${hex.slice(1)}`, body), false, "63 digits");
  assert.equal(signer.verify(`sha256:${hex}`, body), false, "another separator");
  assert.equal(signer.verify(`sha1=${hex}00000`, body), false, "another algorithm, same length");
  assert.equal(signer.verify("", body), false);
});

import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { HmacBytes } from "./_hmac_bytes.ts";

const encoder = new TextEncoder();

Deno.test("the audit HMAC equals node:crypto's HMAC-SHA256 for every message length across block edges and long keys", () => {
  const keys = ["k", "mcp-bench-audit-secret-0123456789", "x".repeat(64), "long key é ".repeat(10), ""];
  for (const key of keys) {
    const mac = new HmacBytes(key);
    for (let length = 0; length <= 200; length++) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 7 + length) % 95))).join(
        "",
      );
      const bytes = encoder.encode(`${text}£`);
      const expected = createHmac("sha256", key).update(bytes.subarray(0, length)).digest("hex");
      assert.equal(mac.hex(bytes, length), expected, `key ${JSON.stringify(key)}, length ${length}`);
    }
    const unicode = encoder.encode("entrée \u{1F600} ".repeat(40));
    assert.equal(mac.hex(unicode, unicode.length), createHmac("sha256", key).update(unicode).digest("hex"));
    const expected = createHmac("sha256", key).update(unicode.subarray(13, 213)).digest("hex");
    assert.equal(mac.hex(unicode, 200, 13), expected, "from an offset");
  }
});

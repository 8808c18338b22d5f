import assert from "node:assert/strict";
import { clientKey } from "./_client_key.ts";

Deno.test("a principal is the client key, whatever the address", () => {
  assert.equal(clientKey("bearer:ab12", "192.0.2.1"), "bearer:ab12");
  assert.equal(clientKey(undefined, undefined), undefined);
  assert.equal(clientKey(undefined, ""), undefined);
});

Deno.test("IPv4 addresses key alone; IPv6 addresses key by their /64 prefix", () => {
  assert.equal(clientKey(undefined, "192.0.2.1"), "ip:192.0.2.1");
  assert.equal(clientKey(undefined, "2001:db8:1:2::10"), "ip:2001:db8:1:2::/64");
  assert.equal(clientKey(undefined, "[2001:DB8:1:2:ffff:0:0:1]"), "ip:2001:db8:1:2::/64");
  assert.equal(clientKey(undefined, "fe80::1%eth0"), "ip:fe80:0:0:0::/64");
  assert.equal(clientKey(undefined, "::1"), "ip:0:0:0:0::/64");
  assert.notEqual(clientKey(undefined, "2001:db8:1:3::10"), clientKey(undefined, "2001:db8:1:2::10"));
});

Deno.test("IPv4-mapped IPv6 keys as the IPv4 address; unparsable addresses key as given", () => {
  assert.equal(clientKey(undefined, "::ffff:192.0.2.1"), "ip:192.0.2.1");
  assert.equal(clientKey(undefined, "::ffff:c000:201"), "ip:192.0.2.1");
  assert.equal(clientKey(undefined, "1:2:3::4::5"), "ip:1:2:3::4::5");
  assert.equal(clientKey(undefined, "1:2:3:4:5:6:7:8:9"), "ip:1:2:3:4:5:6:7:8:9");
});

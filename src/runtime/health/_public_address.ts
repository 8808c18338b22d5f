/**
 * Which IP addresses an escalation webhook may reach: public unicast only (no loopback, private,
 * link-local, carrier-grade NAT, multicast, unspecified or reserved ranges).
 *
 * @module
 */

/** Whether `address` (an IPv4 or IPv6 literal, brackets allowed) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const name = address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const v4 = parseV4(name);
  if (v4) return isPublicV4(v4);
  if (!name.includes(":")) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name);
  if (mapped) {
    const inner = parseV4(mapped[1]);
    return inner !== undefined && isPublicV4(inner);
  }
  const head = parseInt(name.split(":")[0] || "0", 16);
  if (name === "::" || name === "::1") return false;
  if (name.startsWith("::")) return false; // IPv4-compatible and other reserved low addresses
  if ((head & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((head & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((head & 0xffc0) === 0xfec0) return false; // fec0::/10 site-local (deprecated)
  if ((head & 0xff00) === 0xff00) return false; // multicast
  if (head === 0x2001 && name.split(":")[1] === "db8") return false; // documentation
  if (head === 0x64 && name.startsWith("64:ff9b:")) return false; // NAT64 may reach private IPv4
  return true;
}

/** Whether `host` is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, "$1");
  return parseV4(name) !== undefined || name.includes(":");
}

function parseV4(name: string): number[] | undefined {
  const parts = name.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

function isPublicV4([a, b, c]: number[]): boolean {
  if (a === 0 || a === 10 || a === 127) return false;
  if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
  if (a === 169 && b === 254) return false; // link-local (cloud metadata)
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return false; // IETF, documentation
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  if (a === 198 && b === 51 && c === 100) return false; // documentation
  if (a === 203 && b === 0 && c === 113) return false; // documentation
  return a < 224; // multicast, reserved, broadcast
}

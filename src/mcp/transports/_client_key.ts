/**
 * Who a session belongs to for the per-client session cap: the auth gate's principal when there is
 * one, else the peer's address. IPv6 peers are grouped by their /64 prefix (one host usually holds a
 * whole /64, so per-address counting would not bound it); IPv4-mapped IPv6 counts as the IPv4 address.
 *
 * @module
 */

function ipv6Groups(address: string): number[] | undefined {
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === "") return [];
    const groups: number[] = [];
    for (const group of part.split(":")) {
      if (group.includes(".")) {
        const bytes = group.split(".").map(Number);
        if (bytes.length !== 4 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255)) {
          return undefined;
        }
        groups.push(bytes[0] * 256 + bytes[1], bytes[2] * 256 + bytes[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(group)) {
        groups.push(parseInt(group, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

/** The key `principal` or `ipAddress` counts under; undefined when neither is known. */
export function clientKey(principal: string | undefined, ipAddress: string | undefined): string | undefined {
  if (principal !== undefined) return principal;
  if (ipAddress === undefined || ipAddress === "") return undefined;
  const address = ipAddress.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!address.includes(":")) return `ip:${address}`;
  const groups = ipv6Groups(address);
  if (!groups) return `ip:${address.toLowerCase()}`;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `ip:${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  }
  return `ip:${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/**
 * Which destination addresses the guarded fetch may connect to: public addresses only, checked after DNS and on every redirect. The ranges come from
 * ipaddr.js: only global unicast passes; loopback passes when the client's policy allows it.
 */
import ipaddr from 'ipaddr.js';

/** `true`: any loopback port (local development, tests); a list: only those loopback ports. */
export type LoopbackAllowance = boolean | readonly number[];

/**
 * One address and port let through whatever its range: the development stack names its own demo servers this
 * way (`FETCH_ALLOW_DESTINATIONS`), so nothing else on loopback becomes reachable. Production names none.
 */
export interface AllowedDestination {
  address: string;
  port: number;
}

/** `127.0.0.1:8765` or `[::1]:8765` as an allowed destination, or null when it is not an IP address and a port. */
export function parseDestination(entry: string): AllowedDestination | null {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(entry.trim());
  const address = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (!address || !ipaddr.isValid(address) || !(port >= 1 && port <= 65535)) return null;
  return { address: ipaddr.parse(address).toNormalizedString(), port };
}

function destinationAllowed(
  destinations: readonly AllowedDestination[],
  address: ipaddr.IPv4 | ipaddr.IPv6,
  port: number,
) {
  const normalized = address.toNormalizedString();
  return destinations.some((d) => d.port === port && d.address === normalized);
}

function loopbackAllowed(allowance: LoopbackAllowance, port: number): boolean {
  return allowance === true || (Array.isArray(allowance) && allowance.includes(port));
}

/** The embedded IPv4 of a NAT64 address of the well-known prefix (64:ff9b::/96): its last 32 bits. */
function nat64Embedded(address: ipaddr.IPv6): ipaddr.IPv4 {
  const b = address.toByteArray();
  return new ipaddr.IPv4(b.slice(12, 16));
}

/** IANA's global unicast space: an IPv6 address outside it is no public host, whatever it embeds. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** Blocks of IANA's IPv6 special-purpose registry inside 2000::/3 that ipaddr.js does not name yet. */
const UNNAMED_SPECIAL: ReadonlyArray<[ipaddr.IPv6, number, string]> = [
  [...(ipaddr.parseCIDR('3fff::/20') as [ipaddr.IPv6, number]), 'documentation'],
];

/** Why an IPv6 address is no public host, or null when it is one (loopback aside: the caller decides). */
function ipv6Refusal(address: string, parsed: ipaddr.IPv6): { range: string; reason: string } | null {
  const range = parsed.range();
  if (range === 'rfc6052') {
    // NAT64 of a public IPv4 is a real route on IPv6-only networks; of anything else it is not.
    const embedded = nat64Embedded(parsed).range();
    return embedded === 'unicast'
      ? null
      : { range: embedded, reason: `${address} is a NAT64 form of a ${embedded} address` };
  }
  if (range === 'loopback') return { range, reason: `${address} is a loopback address` };
  // ::/96 (IPv4-compatible, deprecated), 64:ff9b:1::/48 (local NAT64), 100::/64, 5f00::/16 …: none is global unicast
  if (range === 'unicast' && !parsed.match(GLOBAL_UNICAST))
    return { range: 'reserved', reason: `${address} is outside the global unicast space (2000::/3)` };
  const unnamed = UNNAMED_SPECIAL.find(([block, bits]) => parsed.match(block, bits));
  if (unnamed) return { range: unnamed[2], reason: `${address} is a ${unnamed[2]} address` };
  return range === 'unicast' ? null : { range, reason: `${address} is a ${range} address` };
}

/**
 * Why `address` (a bare IPv4 or IPv6 literal) must not be connected to on `port`, or null when it
 * may. Only public hosts pass: IPv4 global unicast; IPv6 global unicast (2000::/3) outside every
 * special-purpose block, and NAT64 (64:ff9b::/96) of a public IPv4. IPv4-mapped, IPv4-compatible,
 * local NAT64, 6to4 and Teredo forms are refused outright: a public host never needs them, and a
 * translating network would carry them to whatever IPv4 they embed.
 */
export function refusalReason(
  address: string,
  port: number,
  allowance: LoopbackAllowance,
  destinations: readonly AllowedDestination[] = [],
): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  if (destinationAllowed(destinations, parsed, port)) return null;
  const refusal =
    parsed.kind() === 'ipv6'
      ? ipv6Refusal(address, parsed as ipaddr.IPv6)
      : parsed.range() === 'unicast'
        ? null
        : { range: parsed.range(), reason: `${address} is a ${parsed.range()} address` };
  if (!refusal) return null;
  if (refusal.range === 'loopback' && isPlainLoopback(parsed) && loopbackAllowed(allowance, port)) return null;
  return refusal.reason;
}

/** 127.0.0.0/8 or ::1 itself: a NAT64 form of 127.0.0.1 is no loopback a test may be allowed. */
function isPlainLoopback(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return parsed.kind() === 'ipv4' || parsed.toNormalizedString() === '0:0:0:0:0:0:0:1';
}

/** Names that mean this machine whatever DNS says (RFC 6761); `localhost.` included. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

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

/** The embedded IPv4 of a NAT64 address (64:ff9b::/96, 64:ff9b:1::/48): its last 32 bits. */
function nat64Embedded(address: ipaddr.IPv6): ipaddr.IPv4 {
  const b = address.toByteArray();
  return new ipaddr.IPv4(b.slice(12, 16));
}

/**
 * Why `address` (a bare IPv4 or IPv6 literal) must not be connected to on `port`, or null when it
 * may. IPv4-mapped, 6to4 and Teredo forms are refused outright: a public host never needs them.
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
  let range = parsed.range();
  if (parsed.kind() === 'ipv6' && range === 'rfc6052') {
    // NAT64 of a public IPv4 is a real route on IPv6-only networks; of anything else it is not.
    const embedded = nat64Embedded(parsed as ipaddr.IPv6);
    range = embedded.range();
    if (range !== 'unicast') return `${address} is a NAT64 form of a ${range} address`;
  }
  if (range === 'unicast') return null;
  if (range === 'loopback' && loopbackAllowed(allowance, port)) return null;
  return `${address} is a ${range} address`;
}

/** Names that mean this machine whatever DNS says (RFC 6761); `localhost.` included. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

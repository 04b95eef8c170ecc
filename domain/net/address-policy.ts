/**
 * Which destination addresses the guarded fetch may connect to: public addresses only, checked after DNS and on every redirect. The ranges come from
 * ipaddr.js: only global unicast passes; loopback passes when the client's policy allows it.
 */
import ipaddr from 'ipaddr.js';

/** `true`: any loopback port (local development, tests); a list: only those loopback ports. */
export type LoopbackAllowance = boolean | readonly number[];

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
export function refusalReason(address: string, port: number, allowance: LoopbackAllowance): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
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

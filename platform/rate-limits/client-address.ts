/**
 * The bucket of a client address for the per-address limit: an IPv4 address (an IPv4-mapped IPv6
 * one included, as a dual-stack socket reports it) is its own bucket; an IPv6 address counts with its
 * /64, the smallest block a network hands out, so one client cannot pick a fresh address per request.
 */
import ipaddr from 'ipaddr.js';

export function addressBucket(address: string | undefined): string {
  // a socket closed before the request was read has no address: such requests share one bucket
  if (!address || !ipaddr.isValid(address)) return 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

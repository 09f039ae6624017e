import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/** An IPv6 host is given a whole /64; counting its addresses one by one would let it rotate freely. */
const IPV6_CLIENT_PREFIX = 64;

/**
 * Who a per-client limit counts: the request's address as Express resolves it (`trust proxy`),
 * an IPv4-mapped IPv6 address as its IPv4 address, any other IPv6 address as its /64.
 */
export function clientAddress(req: Pick<Request, 'ip'>): string {
  const ip = req.ip;
  // Only a socket already torn down has no address; such requests share one counter.
  if (ip === undefined || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${IPV6_CLIENT_PREFIX}`).toString()}/${IPV6_CLIENT_PREFIX}`;
}

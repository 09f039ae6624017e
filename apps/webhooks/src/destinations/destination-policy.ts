import { lookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Mode } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import ipaddr from 'ipaddr.js';

/** Deployment settings of the destination guard. */
export interface DestinationSettings {
  /** Lets test-mode endpoints reach loopback, for local development and tests; never live-mode ones. */
  allowLocalHttp: boolean;
}

const URL_MAX_LENGTH = 2048;

/** Instance metadata services hand out cloud credentials: named apart so a refusal says so. */
const CLOUD_METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254']);
const CLOUD_METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal']);

/** ipaddr.js range names as a caller reads them; any other non-unicast range is 'reserved'. */
const RANGE_KINDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  carrierGradeNat: 'carrier-grade NAT',
};

/** The well-known NAT64 prefix; the local-use one (64:ff9b:1::/48) can carry its IPv4 elsewhere and stays refused. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** Every IPv6 address allocated for public unicast; ipaddr.js calls what lies outside (such as IPv4-compatible ::a.b.c.d) 'unicast' too. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why a delivery must not reach this IP address, or null for a public unicast one. An IPv6 address
 * that reaches an IPv4 one (IPv4-mapped, IPv4-translated, well-known NAT64) is judged by that IPv4
 * address; tunnels whose IPv4 address is not decoded (6to4, Teredo) are refused as 'reserved'.
 * Throws if `address` is not an IP address.
 */
export function forbiddenAddressKind(address: string): string | null {
  const judged = reachedAddress(ipaddr.process(address));
  if (CLOUD_METADATA_ADDRESSES.has(judged.toString())) return 'cloud metadata';
  const range = judged.range();
  if (range !== 'unicast') return RANGE_KINDS[range] ?? 'reserved';
  return judged.kind() === 'ipv6' && !judged.match(IPV6_GLOBAL_UNICAST) ? 'reserved' : null;
}

function reachedAddress(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4' || (address.range() !== 'rfc6145' && !address.match(NAT64_WELL_KNOWN))) return address;
  return new ipaddr.IPv4(address.toByteArray().slice(12));
}

/**
 * The endpoint URL a caller gives, refused if deliveries to it could reach the platform's own
 * network. A host name is judged here only by the names that are never public; what it resolves to
 * is judged on every connection by `guardedLookup`, since DNS answers change after creation.
 */
export function checkEndpointUrl(raw: string, mode: Mode, settings: DestinationSettings): URL {
  if (raw.length > URL_MAX_LENGTH) throw invalidUrl(`url must be at most ${URL_MAX_LENGTH} characters.`);
  const url = URL.parse(raw);
  if (url === null) throw invalidUrl('url must be an absolute URL such as https://example.com/webhooks.');
  if (mode === 'live' && url.protocol !== 'https:') {
    throw invalidUrl('url must start with https:// in live mode; http is accepted only for test-mode endpoints.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidUrl('url must start with https:// or http://.');
  if (url.username !== '' || url.password !== '') {
    throw invalidUrl('url must not contain a username or password; verify deliveries by their webhook signature instead.');
  }
  const host = bareHost(url);
  const literal = isIP(host) !== 0;
  const kind = refusedKind(literal ? forbiddenAddressKind(host) : forbiddenNameKind(host), mode, settings);
  if (kind !== null) {
    throw invalidUrl(`url points at ${described(kind)} ${literal ? 'address' : 'host'} (${host}); webhooks are delivered only to public addresses.`);
  }
  return url;
}

/**
 * The `lookup` option for the sender's requests: refuses the connection if any address the host
 * resolves to is forbidden, so a DNS answer changed after the endpoint was created (DNS rebinding)
 * is refused too. The error's code is 'EDESTINATIONFORBIDDEN'. An Agent reuses a kept-alive socket
 * to the same host and port without a lookup, whatever lookup made it: give each guard its own Agent.
 */
export function guardedLookup(mode: Mode, settings: DestinationSettings): LookupFunction {
  return (hostname, options, callback) => {
    // Every address is checked, not only the one asked for: with autoSelectFamily Node tries several.
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      for (const { address } of addresses) {
        const kind = refusedKind(forbiddenAddressKind(address), mode, settings);
        if (kind !== null) return callback(destinationForbidden(`webhook destination ${hostname} resolves to ${address}, ${described(kind)} address`), []);
      }
      if (options.all) return callback(null, addresses);
      // A successful lookup has at least one address.
      const [first] = addresses;
      callback(null, first!.address, first!.family);
    });
  };
}

/**
 * Node connects to an IP-literal host without calling `lookup`, so the sender checks literals
 * itself before sending: null when the destination is allowed, else why not.
 */
export function checkLiteralDestination(url: URL, mode: Mode, settings: DestinationSettings): string | null {
  const host = bareHost(url);
  if (isIP(host) === 0) return null;
  const kind = refusedKind(forbiddenAddressKind(host), mode, settings);
  return kind === null ? null : `webhook destination ${host} is ${described(kind)} address`;
}

/** Names that are never public: loopback ones (RFC 6761), metadata services, and the private-use .internal TLD. */
function forbiddenNameKind(name: string): string | null {
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  if (CLOUD_METADATA_HOSTS.has(name)) return 'cloud metadata';
  return name.endsWith('.internal') ? 'private' : null;
}

function refusedKind(kind: string | null, mode: Mode, settings: DestinationSettings): string | null {
  return kind === 'loopback' && mode === 'test' && settings.allowLocalHttp ? null : kind;
}

/** The host to judge: IPv6 literals without their brackets, names without the root's trailing dot. */
function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') ? host.slice(1, -1) : host.replace(/\.+$/, '');
}

function described(kind: string): string {
  return `${kind === 'unspecified' ? 'an' : 'a'} ${kind}`;
}

function invalidUrl(message: string): ApiError {
  return new ApiError('parameter_invalid', message, { param: 'url' });
}

function destinationForbidden(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: 'EDESTINATIONFORBIDDEN' });
}

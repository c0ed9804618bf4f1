import { BlockList, isIP } from 'node:net';

/**
 * The names the local CA may sign for, written into its certificate as name constraints (RFC 5280
 * 4.2.1.10): if its key ever leaks, it can vouch for nothing on the public internet, only for this
 * machine, reserved test names and private networks. Clients that trust it (curl, Node, Go programs
 * such as rclone, browsers, Android, iOS) enforce the constraints themselves.
 */
export const PERMITTED_DNS_NAMES: readonly string[] = [
  'localhost', // and *.localhost (RFC 6761)
  'test', // RFC 6761
  'example',
  'invalid',
  'example.com',
  'example.net',
  'example.org',
  'local', // mDNS names, how a phone reaches a laptop
  'internal', // ICANN's private-use top-level name
  'home.arpa', // RFC 8375
];

/** Address ranges as [address, prefix length]: loopback, private (RFC 1918, RFC 4193) and link-local. */
export const PERMITTED_IP_RANGES: ReadonlyArray<readonly [string, number]> = [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
];

const permittedAddresses = new BlockList();
for (const [address, prefix] of PERMITTED_IP_RANGES)
  permittedAddresses.addSubnet(address, prefix, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** True when the local CA may sign for this host name or address (a DNS constraint covers the name and its subdomains). */
export function isPermittedName(name: string): boolean {
  const family = isIP(name);
  if (family !== 0) return permittedAddresses.check(name, family === 6 ? 'ipv6' : 'ipv4');
  const lower = name.toLowerCase().replace(/\.$/, '');
  return PERMITTED_DNS_NAMES.some((c) => lower === c || lower.endsWith(`.${c}`));
}

/** One line for people: what the local CA signs for. */
export function permittedNamesText(): string {
  return `localhost, *.localhost, ${PERMITTED_DNS_NAMES.filter((n) => n !== 'localhost')
    .map((n) => `*.${n}`)
    .join(', ')}, loopback, private and link-local addresses`;
}

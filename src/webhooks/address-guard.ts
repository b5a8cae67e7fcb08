import { lookup as dnsLookup, promises as dnsPromises, type LookupAddress } from 'node:dns';
import { BlockList, isIP, isIPv4 } from 'node:net';

/** A BlockList of CIDR ranges ("address/prefix"). */
function blockList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', prefix = ''] = cidr.split('/');
    list.addSubnet(address, Number(prefix), isIPv4(address) ? 'ipv4' : 'ipv6');
  }
  return list;
}

// Ranges a webhook must never reach: a subscriber chooses the URI, so without this rule the
// gateway becomes a proxy into its own network (cloud metadata, admin ports, databases).
const forbidden = blockList([
  '0.0.0.0/8', '::/128', // "this network", unspecified
  '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', // private, unique local
  '127.0.0.0/8', '::1/128', // loopback
  '169.254.0.0/16', 'fe80::/10', // link-local, cloud metadata (169.254.169.254)
  '100.64.0.0/10', // CGNAT
  '192.0.0.0/24', '2001::/23', // IETF protocol assignments (Teredo, ORCHID …)
  '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '198.18.0.0/15', // benchmarking
  '224.0.0.0/4', 'ff00::/8', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast
  '::/96', 'fec0::/10', // IPv4-compatible, site-local (both deprecated)
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard
]);

/** Eight 16-bit groups of an IPv6 address (also in its "::ffff:1.2.3.4" form). */
function ipv6Groups(address: string): number[] {
  const text = address
    .replace(/%.*$/, '')
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right].map((g) => parseInt(g, 16));
}

/** The IPv4 address hidden in an IPv6 one (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return v4(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x2002) return v4(g[1] ?? 0, g[2] ?? 0);
  return null;
}

/** Decides which addresses webhooks may reach; `allowedCidrs` overrides the forbidden ranges. */
export class AddressGuard {
  private readonly allowed: BlockList;

  constructor(allowedCidrs: readonly string[] = []) {
    this.allowed = blockList(allowedCidrs);
  }

  /** Why an IP address is refused, or null when it may be contacted. */
  problem(address: string): string | null {
    const family = isIP(address);
    if (family === 0) return `${address} is not an IP address`;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (this.allowed.check(address, type)) return null;
    if (family === 6) {
      const inner = embeddedIPv4(address);
      if (inner !== null) {
        if (this.allowed.check(inner, 'ipv4')) return null;
        if (forbidden.check(inner, 'ipv4')) return `${address} maps to the non-public address ${inner}`;
      }
    }
    if (forbidden.check(address, type)) return `${address} is a loopback, private, link-local or reserved address`;
    return null;
  }

  /**
   * A dns.lookup replacement for connections: refuses when any resolved address is forbidden. It
   * checks the very addresses the socket will use, so DNS rebinding is caught too.
   */
  readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string } | number,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const opts = typeof options === 'number' ? { family: options } : options;
    dnsLookup(hostname, { family: Number(opts.family ?? 0) as 0 | 4 | 6, all: true }, (error, addresses) => {
      if (error) return callback(error, opts.all ? [] : '', 0);
      const refused = addresses.map((a) => this.problem(a.address)).find((p) => p !== null);
      if (refused) {
        const denied = Object.assign(new Error(`refused: ${hostname} resolves to a forbidden address (${refused})`), { code: 'EADDRFORBIDDEN' });
        return callback(denied, opts.all ? [] : '', 0);
      }
      if (opts.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };

  /**
   * Checks a URL's host before it is stored: literal addresses (in any spelling the URL parser
   * accepts) directly, names by resolving them (one that does not resolve now reaches nothing).
   */
  async hostProblem(url: URL): Promise<string | null> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (isIP(host) !== 0) return this.problem(host);
    const addresses = await Promise.race([
      dnsPromises.lookup(host, { all: true }).catch(() => []),
      new Promise<LookupAddress[]>((resolve) => setTimeout(resolve, 3000, []).unref()),
    ]);
    for (const { address } of addresses) {
      const problem = this.problem(address);
      if (problem) return `${host} resolves to ${address}: ${problem}`;
    }
    return null;
  }
}

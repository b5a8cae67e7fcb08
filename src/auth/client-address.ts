import { BlockList, isIP } from 'node:net';

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** TRUSTED_PROXIES as a BlockList (the ranges were checked when the configuration was loaded). */
export function trustedProxyList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const slash = cidr.lastIndexOf('/');
    const address = normalise(cidr.slice(0, slash)) ?? cidr.slice(0, slash);
    list.addSubnet(address, Number(cidr.slice(slash + 1)), family(address));
  }
  return list;
}

/**
 * One spelling per address, or null when `raw` is not one: a port or brackets a proxy may add are
 * dropped, and an IPv4-mapped IPv6 address (what a dual-stack socket reports) becomes plain IPv4.
 */
function normalise(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::[0-9]+)?$/.exec(value);
  if (bracketed) value = bracketed[1] ?? '';
  else if (/^[0-9.]+:[0-9]+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  const mapped = /^::ffff:([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)$/i.exec(value);
  if (mapped) value = mapped[1] ?? '';
  return isIP(value) === 0 ? null : value.toLowerCase();
}

/**
 * The address a request comes from. The socket peer, unless the peer is a trusted proxy: then
 * X-Forwarded-For is read from the right (the hop nearest to us) past every trusted hop, and the
 * first address that is not trusted is the client. Entries left of it were written by the client
 * and are never believed. An entry that is not an address ends the walk at the hop that passed it on.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: BlockList): string {
  const socketAddress = normalise(peer ?? '');
  if (socketAddress === null) return peer ?? 'unknown';
  if (!trusted.check(socketAddress, family(socketAddress)) || forwardedFor === undefined) return socketAddress;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').filter((hop) => hop.trim() !== '');
  let client = socketAddress;
  for (const raw of hops.reverse()) {
    const hop = normalise(raw);
    if (hop === null) return client;
    client = hop;
    if (!trusted.check(hop, family(hop))) return hop;
  }
  return client;
}

/**
 * The key a client's token budget is kept under: its IPv4 address, or its IPv6 /64, because one
 * IPv6 subscriber usually holds a whole /64 and could otherwise take a fresh budget per address.
 */
export function addressBudgetKey(address: string): string {
  if (isIP(address) !== 6) return address;
  // The first four of the eight groups, '::' written out; a trailing dotted quad is the last two.
  const [head = '', tail] = address.replace(/[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/, '0:0').split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  const groups = [...left, ...zeros, ...right].slice(0, 4);
  return `${groups.map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}

/**
 * The fetch guard's address policy against IANA's special-purpose registries (test/fixtures/iana/), not a
 * hand list: every block is refused (its first, middle and last address), and every IPv4 block is refused in
 * each IPv6 form that embeds an IPv4 address: IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96 and the
 * local-use 64:ff9b:1::/48), 6to4 and Teredo (as server and as client). The only IPv6 special block with a
 * public route is the well-known NAT64 prefix: it passes with a public IPv4 inside, never with another.
 */
import { readFileSync } from 'fs';
import ipaddr from 'ipaddr.js';
import path from 'path';
import { refusalReason } from '../../platform/net/address-policy';

interface RegistryRow {
  block: string;
  name: string;
}

function registry(file: string): RegistryRow[] {
  const lines = readFileSync(path.join(__dirname, '../fixtures/iana', file), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((line) => {
    const [block, ...rest] = line.split(',');
    return { block, name: rest.slice(0, -2).join(',').replace(/"/g, '') };
  });
}

const ipv4Registry = registry('ipv4-special-registry.csv');
const ipv6Registry = registry('ipv6-special-registry.csv');

/** First, middle and last address of a block, as byte arrays. */
function samples(block: string): number[][] {
  const [address, bits] = ipaddr.parseCIDR(block);
  const first = address.toByteArray();
  const size = first.length * 8;
  const withHostBits = (fill: (bit: number) => number) =>
    first.map((byte, i) => {
      let out = byte;
      for (let b = 0; b < 8; b++) {
        const bit = i * 8 + b;
        if (bit >= bits) out = (out & ~(0x80 >> b)) | (fill(bit) ? 0x80 >> b : 0);
      }
      return out;
    });
  const last = withHostBits(() => 1);
  // the middle: the first host bit set, the others clear
  const middle = withHostBits((bit) => (bit === bits ? 1 : 0));
  return bits === size ? [first] : [first, middle, last];
}

const text = (bytes: number[]) => ipaddr.fromByteArray(bytes).toString();

/** Each IPv6 form that carries an IPv4 address. */
const EMBEDDINGS: Record<string, (v4: number[]) => number[]> = {
  'IPv4-mapped (::ffff:0:0/96)': (v4) => [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4],
  'IPv4-compatible (::/96)': (v4) => [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...v4],
  'NAT64 (64:ff9b::/96)': (v4) => [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, ...v4],
  // RFC 6052 §2.2 for a /48 prefix: two octets, the reserved u octet, two octets
  'local NAT64 (64:ff9b:1::/48)': (v4) => [0, 0x64, 0xff, 0x9b, 0, 1, v4[0], v4[1], 0, v4[2], v4[3], 0, 0, 0, 0, 0],
  '6to4 (2002::/16)': (v4) => [0x20, 0x02, ...v4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
  'Teredo server (2001::/32)': (v4) => [0x20, 0x01, 0, 0, ...v4, 0, 0, 0xff, 0xff, 0x7f, 0, 0, 1],
  'Teredo client (2001::/32)': (v4) => [0x20, 0x01, 0, 0, 8, 8, 8, 8, 0, 0, 0xff, 0xff, ...v4.map((b) => b ^ 0xff)],
};

const refused = (address: string) => refusalReason(address, 80, false);

describe('the fetch guard refuses every block of the IPv4 special-purpose registry', () => {
  test.each(ipv4Registry)('$block ($name)', ({ block }) => {
    for (const bytes of samples(block))
      expect([text(bytes), refused(text(bytes))]).toEqual([text(bytes), expect.any(String)]);
  });

  test('and multicast (224.0.0.0/4), outside that registry', () => {
    for (const bytes of samples('224.0.0.0/4')) expect(refused(text(bytes))).toEqual(expect.any(String));
  });
});

describe('the fetch guard refuses every block of the IPv6 special-purpose registry', () => {
  // the well-known NAT64 prefix is walked with the IPv4 registry inside it, below
  test.each(ipv6Registry.filter((r) => r.block !== '64:ff9b::/96'))('$block ($name)', ({ block }) => {
    for (const bytes of samples(block))
      expect([text(bytes), refused(text(bytes))]).toEqual([text(bytes), expect.any(String)]);
  });

  test('and the rest of the IPv6 space outside 2000::/3: ::/96, multicast, the unallocated', () => {
    for (const address of ['::7f00:1', '::a9fe:a9fe', '::808:808', 'ff02::1', '4000::1', 'e000::1', '1::1'])
      expect([address, refused(address)]).toEqual([address, expect.any(String)]);
  });
});

describe('every IPv4 special block is refused in every IPv6 form that embeds it', () => {
  const cases = Object.entries(EMBEDDINGS).flatMap(([form, embed]) =>
    ipv4Registry.map((row) => ({ form, block: row.block, embed })),
  );
  test.each(cases)('$block as $form', ({ block, embed }) => {
    for (const v4 of samples(block)) {
      const address = text(embed(v4));
      expect([address, refused(address)]).toEqual([address, expect.any(String)]);
    }
  });

  test('the URL forms the attack used: [::127.0.0.1] and [::a9fe:a9fe], even where loopback is allowed', () => {
    for (const address of ['::127.0.0.1', '::a9fe:a9fe', '::7f00:1', '64:ff9b::127.0.0.1', '::ffff:127.0.0.1'])
      expect([address, refusalReason(address, 18999, true)]).toEqual([address, expect.any(String)]);
  });
});

describe('public hosts pass', () => {
  const publicV4 = [93, 184, 216, 34];
  test('a public IPv4, as itself and in the well-known NAT64 prefix only', () => {
    expect(refused('93.184.216.34')).toBeNull();
    expect(refused(text(EMBEDDINGS['NAT64 (64:ff9b::/96)'](publicV4)))).toBeNull();
    for (const [form, embed] of Object.entries(EMBEDDINGS).filter(([f]) => !f.startsWith('NAT64')))
      expect([form, refused(text(embed(publicV4)))]).toEqual([form, expect.any(String)]);
  });

  test('public IPv6 addresses', () => {
    for (const address of ['2606:4700:4700::1111', '2a00:1450:4007:80e::200e', '2001:4860:4860::8888'])
      expect(refused(address)).toBeNull();
  });

  test('loopback only where the policy allows it, and only itself', () => {
    expect(refusalReason('127.0.0.1', 80, true)).toBeNull();
    expect(refusalReason('::1', 80, true)).toBeNull();
    expect(refusalReason('::1', 80, [81])).toEqual(expect.any(String));
    expect(refusalReason('127.0.0.1', 81, [81])).toBeNull();
  });
});

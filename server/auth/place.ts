/**
 * The rough place of a device (docs/account.md, "Signed-in devices"): the country of the IP
 * address the auth server sees at sign-in and refresh, from an offline database shipped in an npm
 * package, so nothing is asked of anyone at run time. The database is
 * `@ip-location-db/geo-whois-asn-country-mmdb` (ISO 3166-1 alpha-2 country per network, from the
 * five RIRs' WHOIS and ASN data and published geofeeds; CC BY 4.0 by the NRO, packaged CC0, about
 * 8 MB), read with `mmdb-lib` (MaxMind DB format, MIT). Read once, on the first lookup.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BlockList, isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';

/** Networks that name no place (RFC 6890 special-purpose: private, loopback, link-local, …). */
const special = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  special.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['2001:db8::', 32],
  ['ff00::', 8],
] as const)
  special.addSubnet(net, bits, 'ipv6');

let reader: Reader<Response> | undefined;
function database() {
  if (!reader) {
    const file = createRequire(import.meta.url).resolve(
      '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
    );
    reader = new Reader<Response>(readFileSync(file));
  }
  return reader;
}

/**
 * The ISO 3166-1 alpha-2 country of `ip`, or null for an address that names no place (private,
 * loopback, documentation ranges), one the database does not know, or no address at all.
 */
export function countryOf(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const address = ip.replace(/^::ffff:(?=\d+\.)/i, '');
  const family = isIP(address);
  if (!family) return null;
  if (special.check(address, family === 4 ? 'ipv4' : 'ipv6')) return null;
  // This database's records are `{ country_code }`, not MaxMind's shapes that mmdb-lib types.
  const record = database().get(address) as unknown as { country_code?: unknown } | null;
  const code = record?.country_code;
  return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
}

/**
 * The rough place of a device: the offline country database (server/auth/place.ts). The public
 * addresses are the RIPE NCC's own (193.0.0.0/21 and 2001:67c:2e8::/48, registered in Amsterdam,
 * https://www.ripe.net/) and Google's public DNS (8.8.8.0/24, 2001:4860::/32, United States).
 */
import { describe, expect, it } from 'vitest';
import { countryOf } from './place';

describe('countryOf', () => {
  it('names the country of a public address, IPv4 and IPv6', () => {
    expect(countryOf('193.0.6.139')).toBe('NL');
    expect(countryOf('2001:67c:2e8:22::c100:68b')).toBe('NL');
    expect(countryOf('8.8.8.8')).toBe('US');
    expect(countryOf('2001:4860:4860::8888')).toBe('US');
    expect(countryOf('::ffff:193.0.6.139')).toBe('NL');
  });

  it('names no place for private, loopback, link-local and documentation addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.10',
      '100.64.0.1',
      '169.254.1.1',
      '203.0.113.7',
      '::1',
      '::',
      'fd12:3456::1',
      'fe80::1',
      '2001:db8::1',
    ])
      expect(countryOf(ip), ip).toBeNull();
  });

  it('names no place without an address or for something that is not one', () => {
    for (const ip of [null, undefined, '', 'unknown', '999.1.1.1', '8.8.8.8; drop table'])
      expect(countryOf(ip)).toBeNull();
  });
});

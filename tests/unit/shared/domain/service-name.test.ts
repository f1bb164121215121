/**
 * What the user's own service is called, the rule's one home: the typed name, else the host of
 * its address as people read it, else nothing (the window then says the catalogue's name).
 */
import { describe, expect, it } from 'vitest';
import { addressHost, ownServiceName } from '../../../../shared/domain/service-name';
import { decodePunycode } from '../../../../shared/text/punycode';

describe('the host an address is named by', () => {
  it.each([
    ['https://images.example.com/v1', 'images.example.com'],
    ['  https://Images.Example.com  ', 'images.example.com'],
    ['https://gpu.local:8443', 'gpu.local:8443'],
    ['http://127.0.0.1:80', '127.0.0.1'],
    ['http://[::1]:8080/', '[::1]:8080'],
    ['https://[2001:db8::7]', '[2001:db8::7]'],
    ['https://xn--bcher-kva.example', 'bücher.example'],
    ['https://münchen.example:8443', 'münchen.example:8443'],
    ['https://xn--mgbh0fb.xn--kgbechtv', 'مثال.إختبار'],
    ['https://xn--fsqu00a.xn--0zwm56d', '例子.测试'],
  ])('%s is %s', (address, host) => {
    expect(addressHost(address)).toBe(host);
  });

  it('is nothing for what is not an http(s) address', () => {
    for (const address of ['', 'images.example.com', 'ftp://files.example', 'not a url'])
      expect(addressHost(address)).toBe('');
  });

  it('keeps a label that is not valid Punycode as it came', () => {
    expect(decodePunycode('99999999999999')).toBeNull();
    expect(decodePunycode('a'.repeat(64))).toBeNull();
    expect(decodePunycode('bcher-kva')).toBe('bücher');
  });
});

describe('the name of the user’s own service', () => {
  it('is the typed name, else the host, else nothing', () => {
    const baseUrl = 'https://images.example.com';
    expect(ownServiceName({ serviceName: 'Studio GPU', baseUrl })).toBe('Studio GPU');
    expect(ownServiceName({ serviceName: '  \u202E ', baseUrl })).toBe('images.example.com');
    expect(ownServiceName({ serviceName: '', baseUrl })).toBe('images.example.com');
    expect(ownServiceName({ serviceName: '', baseUrl: '' })).toBe('');
  });
});

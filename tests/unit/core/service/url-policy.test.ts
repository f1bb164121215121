import { describe, expect, it } from 'vitest';
import {
  checkBaseUrl,
  checkImageUrl,
  isLoopbackHost,
  isNonPublicAddress,
} from '../../../../electron/core/service/url-policy';

describe('checkBaseUrl', () => {
  it.each([
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com/proxy/', 'https://api.example.com/proxy'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://localhost:3000/', 'http://localhost:3000'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    // The service's paths carry /v1 already: a base URL quoted with it would ask /v1/v1/….
    ['https://api.example.com/v1', 'https://api.example.com'],
    ['https://api.example.com/v1/', 'https://api.example.com'],
    ['https://api.example.com/proxy/v1//', 'https://api.example.com/proxy'],
    ['https://api.example.com/v1x', 'https://api.example.com/v1x'],
    ['https://api.example.com/v1/v1', 'https://api.example.com/v1'],
  ])('accepts %s', (raw, normalised) => {
    expect(checkBaseUrl(raw)).toBe(normalised);
  });

  it.each([
    ['http://api.example.com', /https:\/\//],
    ['ftp://api.example.com', /https:\/\//],
    ['https://user:pw@api.example.com', /user name or password/],
    ['https://api.example.com/?x=1', /query/],
    ['not a url', /not a valid URL/],
    ['http://10.0.0.5', /https:\/\//],
  ])('refuses %s', (raw, message) => {
    expect(() => checkBaseUrl(raw)).toThrow(message);
  });
});

describe('checkImageUrl', () => {
  const remote = 'https://api.example.com';
  const local = 'http://127.0.0.1:9999';
  it('accepts public http(s) image hosts', () => {
    expect(checkImageUrl('https://cdn.example.com/a.png?sig=1', remote).hostname).toBe(
      'cdn.example.com',
    );
    expect(checkImageUrl('http://cdn.example.com/a.png', remote).protocol).toBe('http:');
  });
  it.each([
    'file:///etc/passwd',
    'data:image/png;base64,AAAA',
    'javascript:alert(1)',
    'https://user@cdn.example.com/a.png',
    'http://127.0.0.1/a.png',
    'http://localhost/a.png',
    'http://10.1.2.3/a.png',
    'http://192.168.0.1/a.png',
    'http://172.20.0.1/a.png',
    'http://169.254.169.254/latest/meta-data',
    'http://[fe80::1]/a.png',
    'http://[fd00::1]/a.png',
    'http://[::ffff:10.0.0.1]/a.png',
    'http://[::ffff:127.0.0.1]/a.png',
    'http://[::127.0.0.1]/a.png',
    'http://[::ffff:0:10.0.0.1]/a.png',
    'http://[64:ff9b::127.0.0.1]/a.png',
    'http://[64:ff9b:1::1]/a.png',
    'http://[2002:7f00:1::]/a.png',
    'http://0.0.0.0/a.png',
  ])('refuses %s for a remote service', (url) => {
    expect(() => checkImageUrl(url, remote)).toThrow();
  });
  it('allows loopback images only when the service itself is on loopback', () => {
    expect(checkImageUrl('http://127.0.0.1:9999/files/a.png', local).port).toBe('9999');
  });
  it('knows loopback and non-public hosts', () => {
    expect(isLoopbackHost('127.8.9.1')).toBe(true);
    expect(isLoopbackHost(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe(true);
    expect(isLoopbackHost('app.localhost')).toBe(true);
    expect(isLoopbackHost('example.com')).toBe(false);
    expect(isNonPublicAddress('100.64.0.1')).toBe(true);
    expect(isNonPublicAddress('8.8.8.8')).toBe(false);
    // A public IPv4 address inside IPv6 stays public.
    expect(isNonPublicAddress(new URL('http://[64:ff9b::8.8.8.8]/').hostname)).toBe(false);
    expect(isNonPublicAddress(new URL('http://[2002:808:808::1]/').hostname)).toBe(false);
  });
});

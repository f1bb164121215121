/**
 * Image hosts are judged by the addresses their names resolve to, and the connection goes to
 * the address that was checked: a name resolving into any special-purpose range is refused
 * before a connection; one bad address among good ones refuses the host; a second, different
 * DNS answer (rebinding) cannot move the connection; every redirect hop is resolved and checked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPinnedFetch, systemResolver } from '../../../../electron/core/download/pinned-fetch';
import { classifyAddress } from '../../../../electron/core/service/special-addresses';
import type { PinnedFetch, ResolvedAddress } from '../../../../electron/ports/http';
import { expectState } from './download-fixture';
import { makeImage, tempFiles } from '../../../support/gallery-helpers';
import {
  downloadOptions,
  downloadWith,
  routedFetch,
  scriptedResolver,
} from '../../../support/pinned-helpers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const REMOTE = 'https://api.example.com';
const PUBLIC = '93.184.215.14';

let root: string;
let png: Buffer;

beforeAll(async () => {
  png = await makeImage('png', 24, 24);
});

beforeEach(async () => {
  root = await tempFolder('gallery');
});

afterEach(async () => {
  expect(await tempFiles(root)).toEqual([]);
  await removeFolder(root);
});

/** A pinned fetch that must never be called. */
function neverFetch(): PinnedFetch & { pins: ResolvedAddress[] } {
  const pins: ResolvedAddress[] = [];
  const fetch: PinnedFetch = (_url, _init, address) => {
    pins.push(address);
    return Promise.reject(new Error('connected'));
  };
  return Object.assign(fetch, { pins });
}

/** A server on `host` that counts requests and answers with `body`. */
async function listen(host: string, port: number, body: Buffer | string) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
    res.writeHead(200, { 'Content-Type': 'image/png' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    seen,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a name that resolves to a special-purpose address', () => {
  // One address per registry row (RFC 6890 and its updates), written from the RFCs here.
  it.each([
    ['0.1.2.3', 'RFC 791 this network'],
    ['10.20.30.40', 'RFC 1918'],
    ['100.127.255.254', 'RFC 6598 shared'],
    ['127.0.0.1', 'loopback, remote service'],
    ['169.254.169.254', 'RFC 3927 link local (cloud metadata)'],
    ['172.31.0.1', 'RFC 1918'],
    ['192.0.0.9', 'RFC 7723 PCP anycast'],
    ['192.0.2.7', 'TEST-NET-1'],
    ['192.31.196.1', 'AS112-v4'],
    ['192.52.193.1', 'AMT'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.168.1.1', 'RFC 1918'],
    ['192.175.48.6', 'AS112 direct delegation'],
    ['198.18.0.1', 'RFC 2544 benchmarking'],
    ['198.19.255.255', 'RFC 2544 benchmarking, last'],
    ['198.51.100.1', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.251', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'limited broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:10.0.0.5', 'IPv4-mapped private'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:0:192.168.0.1', 'IPv4-translated private'],
    ['::172.16.0.1', 'IPv4-compatible private'],
    ['64:ff9b::a00:5', 'NAT64 well-known, private inside'],
    ['64:ff9b:1::8.8.8.8', 'NAT64 local use'],
    ['100::1', 'discard-only'],
    ['2001::8.8.8.8', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffa', 'Teredo, client 10.0.0.5 obfuscated'],
    ['2001:2::1', 'benchmarking'],
    ['2001:20::1', 'ORCHIDv2'],
    ['2001:db8::1', 'documentation'],
    ['2002:a9fe:a9fe::1', '6to4 around the metadata address'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['5f00::1', 'SRv6 SIDs'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local'],
    ['fe80::1', 'link local'],
    ['fec0::1', 'site local'],
    ['ff02::1', 'multicast'],
  ])('%s (%s) is refused before any connection', async (address) => {
    const resolver = scriptedResolver({ 'img.example.net': [[address]] });
    const fetch = neverFetch();
    const settings = downloadOptions(root, { resolver, imageFetch: fetch });
    const outcome = await downloadWith(settings, 'https://img.example.net/a.png', REMOTE);
    expect(expectState(outcome, 'invalid').error).toContain(`(${address})`);
    expect(outcome.state === 'invalid' && outcome.error).toMatch(
      /^The image address points (to a private or local network|at this computer) \(/,
    );
    expect(fetch.pins).toEqual([]);
    expect(resolver.asked).toEqual(['img.example.net']);
  });

  it.each([
    [[PUBLIC, '10.0.0.5'], '10.0.0.5'],
    [['10.0.0.5', PUBLIC], '10.0.0.5'],
    [[PUBLIC, '2606:4700::1', 'fd00::7'], 'fd00::7'],
    [['2606:4700::1', '::ffff:127.0.0.1'], '::ffff:127.0.0.1'],
  ])('%j: one bad address refuses the host', async (addresses, bad) => {
    const fetch = neverFetch();
    const settings = downloadOptions(root, {
      resolver: scriptedResolver({ 'img.example.net': [addresses] }),
      imageFetch: fetch,
    });
    const outcome = await downloadWith(settings, 'https://img.example.net/a.png', REMOTE);
    expect(expectState(outcome, 'invalid').error).toContain(`(${bad})`);
    expect(fetch.pins).toEqual([]);
  });

  it('a name that does not resolve, or a resolver that hangs, is a retry, not a refusal', async () => {
    const missing = downloadOptions(root, {
      resolver: scriptedResolver({}),
      imageFetch: neverFetch(),
    });
    expect(
      expectState(await downloadWith(missing, 'https://nowhere.example/a.png', REMOTE), 'retry')
        .error,
    ).toMatch(/could not be reached \(ENOTFOUND\)/);
    const hanging = {
      ...downloadOptions(root, {
        resolver: () => new Promise<never>(() => undefined),
        imageFetch: neverFetch(),
      }),
      downloadTimeoutMs: 200,
    };
    expect(
      expectState(await downloadWith(hanging, 'https://slow.example/a.png', REMOTE), 'retry').error,
    ).toMatch(/did not finish within/);
  });
});

describe('the connection goes to the checked address only', () => {
  let secret: Awaited<ReturnType<typeof listen>>;
  let good: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    // Same port on two loopback addresses: 127.0.0.1 would serve a secret, 127.0.0.2 the image.
    secret = await listen('127.0.0.1', 0, 'SECRET from the local network');
    good = await listen('127.0.0.2', secret.port, png);
  });

  afterAll(async () => {
    await Promise.all([secret.close(), good.close()]);
  });

  // This test's policy calls 127.0.0.2 public (it stands for an internet host); 127.0.0.1 is
  // what the rebinding name turns into on its second answer.
  const classify = (address: string) =>
    address === '127.0.0.2' ? 'public' : classifyAddress(address);

  it('a name answering public first and 127.0.0.1 next is downloaded from the first answer', async () => {
    const resolver = scriptedResolver({ 'rebind.example': [['127.0.0.2'], ['127.0.0.1']] });
    const settings = downloadOptions(root, {
      resolver,
      classify,
      imageFetch: createPinnedFetch(),
    });
    const url = `http://rebind.example:${good.port}/a.png`;
    const outcome = await downloadWith(settings, url, REMOTE);
    expect(expectState(outcome, 'saved').bytes).toBe(png.length);
    expect(good.seen).toEqual([`rebind.example:${good.port}/a.png`]);
    expect(secret.seen).toEqual([]);
    expect(resolver.asked).toEqual(['rebind.example']);
  });

  it('(the same test against a transport that resolves again reaches the secret)', async () => {
    // Shows the test above can fail: connecting to a fresh answer lands on 127.0.0.1.
    const resolver = scriptedResolver({ 'rebind.example': [['127.0.0.2'], ['127.0.0.1']] });
    const real = createPinnedFetch();
    const resolvesAgain: PinnedFetch = async (url, init) => {
      const [fresh] = await resolver(new URL(url).hostname);
      return real(url, init, fresh!);
    };
    const settings = downloadOptions(root, { resolver, classify, imageFetch: resolvesAgain });
    const before = secret.seen.length;
    const outcome = await downloadWith(
      settings,
      `http://rebind.example:${good.port}/b.png`,
      REMOTE,
    );
    expect(outcome.state).toBe('invalid');
    expect(secret.seen.length).toBe(before + 1);
    secret.seen.length = before;
  });

  it('every redirect hop is resolved and checked', async () => {
    const hops = createServer((req, res) => {
      const next: Record<string, string> = {
        '/start': 'http://second.example/next',
        '/next': 'http://inside.example/x.png',
      };
      res.writeHead(302, { Location: next[req.url ?? ''] ?? '/' }).end();
    });
    await new Promise<void>((resolve) => hops.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(hops.address() as AddressInfo).port}`;
    try {
      const resolver = scriptedResolver({
        'first.example': [[PUBLIC]],
        'second.example': [['2606:4700::1']],
        'inside.example': [['10.0.0.5']],
      });
      const imageFetch = routedFetch({ [PUBLIC]: origin, '2606:4700::1': origin });
      const settings = downloadOptions(root, { resolver, imageFetch });
      const outcome = await downloadWith(settings, 'http://first.example/start', REMOTE);
      expect(expectState(outcome, 'invalid').error).toContain('(10.0.0.5)');
      expect(resolver.asked).toEqual(['first.example', 'second.example', 'inside.example']);
      expect(imageFetch.pins.map((pin) => pin.address)).toEqual([PUBLIC, '2606:4700::1']);
    } finally {
      hops.closeAllConnections();
      await new Promise<void>((resolve) => hops.close(() => resolve()));
    }
  });
});

describe('the default resolver (hosts file, DNS)', () => {
  it('resolves localhost from the hosts file to loopback, which only a local service may use', async () => {
    const answers = await systemResolver('localhost');
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every(({ address }) => classifyAddress(address) === 'loopback')).toBe(true);
    // The download pins the first answer: the image server listens there.
    const host = await listen(answers[0]!.address, 0, png);
    try {
      const defaults = downloadOptions(root);
      const url = `http://localhost:${host.port}/a.png`;
      const local = await downloadWith(defaults, url, `http://localhost:${host.port}`);
      expect(expectState(local, 'saved').bytes).toBe(png.length);
      expect(host.seen).toEqual([`localhost:${host.port}/a.png`]);
      const remote = await downloadWith(defaults, url, REMOTE);
      expect(expectState(remote, 'invalid').error).toMatch(/this computer/);
      expect(host.seen).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});

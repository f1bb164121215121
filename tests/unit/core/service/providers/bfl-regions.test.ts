/**
 * Black Forest Labs hands back a `polling_url` on the region that took the task, and adds regions
 * as it adds clusters: the service client follows any `api.<region>.bfl.ai` with the key (a
 * region it has never heard of included), from the global address or a regional one, and never
 * a host that only looks like one. The transport is a recording fake: these hosts are BFL's own.
 */
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../../electron/core/service/service-client';
import { imageHostRefusal } from '../../../../../electron/core/service/providers/media-hosts';
import { serviceError } from '../answer-harness';
import { answer, fakeFetch, json } from '../fake-fetch';

const KEY = 'bfl-key-regions-7d21';

function bfl(baseUrl: string) {
  const fake = fakeFetch(json(200, { id: 't-1', status: 'Pending', progress: 0.5 }));
  const client = new ServiceClient({ fetch: fake.fetch });
  const credentials = { baseUrl, key: KEY, keyFingerprint: 'acct', provider: 'bfl' as const };
  const poll = (pollUrl: string) =>
    client.getTask(credentials, { taskId: 't-1', handles: { poll: pollUrl } });
  return { poll, calls: fake.calls };
}

/** A key check (Settings' Test connection) at `baseUrl`, redirected to `location`. */
function probeRedirectedTo(baseUrl: string, location: string) {
  const fake = fakeFetch(answer(307, '', { location }), json(200, { credits: 3 }));
  const client = new ServiceClient({ fetch: fake.fetch });
  const credentials = { baseUrl, key: KEY, keyFingerprint: 'acct', provider: 'bfl' as const };
  return { check: client.probeKey(credentials), calls: fake.calls };
}

describe('a key check redirected', () => {
  it('at BFL’s own address, follows a BFL region with the key', async () => {
    const { check, calls } = probeRedirectedTo(
      'https://api.bfl.ai',
      'https://api.eu2.bfl.ai/v1/credits',
    );
    await expect(check).resolves.toMatchObject({ verdict: 'accepted', detail: 'Credits: 3' });
    expect(calls.map((call) => call.url)).toEqual([
      'https://api.bfl.ai/v1/credits',
      'https://api.eu2.bfl.ai/v1/credits',
    ]);
    for (const call of calls) expect(call.headers.get('x-key')).toBe(KEY);
  });

  it.each([
    ['https://api.bfl.ai', 'https://api.eu.bfl.ai.evil.example/v1/credits'],
    ['https://api.bfl.ai', 'https://evil.example.api.eu.bfl.ai/v1/credits'],
    ['https://api.bfl.ai', 'https://api.eu.evil.bfl.ai/v1/credits'],
    ['https://api.bfl.ai', 'https://api.eu.bfl.ai:8443/v1/credits'],
    ['https://api.bfl.ai', 'http://api.eu.bfl.ai/v1/credits'],
    ['https://api.eu.bfl.ai', 'https://api.xn--u-wga.bfl.ai/v1/credits'],
    ['https://bfl-proxy.example', 'https://api.eu.bfl.ai/v1/credits'],
  ])('at %s, never follows %s', async (baseUrl, location) => {
    const { check, calls } = probeRedirectedTo(baseUrl, location);
    // Named for Settings ("sends requests on to …"), never followed.
    const target = new URL(location);
    await expect(check).resolves.toEqual({
      verdict: 'redirected',
      status: 307,
      to: target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : null,
    });
    expect(calls).toHaveLength(1);
  });
});

describe('a BFL task polled on the region that took it', () => {
  it.each([
    ['https://api.bfl.ai', 'https://api.eu2.bfl.ai/v1/get_result?id=t-1'],
    ['https://api.bfl.ai', 'https://api.us.bfl.ai/v1/get_result?id=t-1'],
    ['https://api.eu.bfl.ai', 'https://api.us1.bfl.ai/v1/get_result?id=t-1'],
    ['https://api.eu.bfl.ai', 'https://api.ap-southeast.bfl.ai/v1/get_result?id=t-1'],
  ])('at %s, polls %s with the key', async (baseUrl, pollUrl) => {
    const { poll, calls } = bfl(baseUrl);
    await expect(poll(pollUrl)).resolves.toMatchObject({ status: 'processing' });
    expect(calls.map((call) => call.url)).toEqual([pollUrl]);
    expect(calls[0]!.headers.get('x-key')).toBe(KEY);
  });

  it.each([
    'https://api.bfl.ai.evil.example/v1/get_result?id=t-1',
    'https://evil.example.api.eu.bfl.ai/v1/get_result?id=t-1',
    'https://api.eu.evil.bfl.ai/v1/get_result?id=t-1',
    'https://api.eu.bfl.ai:8443/v1/get_result?id=t-1',
    'http://api.eu.bfl.ai/v1/get_result?id=t-1',
    'https://x@api.eu.bfl.ai/v1/get_result?id=t-1',
    'https://api.xn--u-wga.bfl.ai/v1/get_result?id=t-1',
    'https://api.eu.bfl.ai./v1/get_result?id=t-1',
  ])('refuses %s before any request, naming the host', async (pollUrl) => {
    const { poll, calls } = bfl('https://api.bfl.ai');
    const error = await serviceError(poll(pollUrl));
    expect(error.kind).toBe('config');
    expect(error.sentence?.key).toBe('error.service.foreignTaskAddress');
    expect(calls).toEqual([]);
  });

  it('at an address the user named instead, polls nowhere else', async () => {
    const { poll, calls } = bfl('https://bfl-proxy.example');
    const error = await serviceError(poll('https://api.eu.bfl.ai/v1/get_result?id=t-1'));
    expect(error.sentence?.key).toBe('error.service.foreignTaskAddress');
    expect(calls).toEqual([]);
  });

  it('at a regional address, takes images only from BFL’s delivery hosts', () => {
    const regional = 'https://api.eu.bfl.ai';
    expect(imageHostRefusal('bfl', 'https://delivery-eu1.bfl.ai/r/a.jpeg', regional)).toBeNull();
    expect(imageHostRefusal('bfl', 'https://delivery.eu2.bfl.ai/r/a.jpeg', regional)).toBeNull();
    expect(imageHostRefusal('bfl', 'https://cdn.evil.example/a.jpeg', regional)).toMatchObject({
      key: 'error.service.imageHostNotService',
    });
  });
});

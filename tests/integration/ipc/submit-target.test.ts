/**
 * The service travels with the request, over a real AppRuntime and the IPC bridge that parses
 * every request, against the demo service's bfl and fal dialects on loopback: a submit goes to
 * the service its target names, "Submit again" to the service of the task it repeats, whatever
 * the form (and the setting that remembers its choice) says by then; a target from a compromised
 * page that names an address with no key of its service, or one service at another's address, is
 * refused with a sentence and nothing is stored or sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { TaskItem } from '../../../shared/ipc/contract';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { testImageEngine } from '../../support/image-engine';
import { wiredIpc } from '../../support/wired-ipc';

const BFL_KEY = 'bfl-key-LEAKCANARY-0123456789';
const FAL_KEY = 'fal-key-LEAKCANARY-9876543210';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function dialect(name: 'bfl' | 'fal', key: string): Promise<DemoService> {
  const service = await startDemoService({
    dialect: name,
    durationMs: 100,
    images: testImageEngine,
    accounts: [{ account: `${name}-user`, key }],
  });
  cleanups.push(() => service.close());
  return service;
}

/** The app with BFL's and fal's addresses set to the two demo dialects, and a key for each. */
async function twoServices() {
  const { runtime, request } = await wiredIpc(cleanups, { prefix: 'pictor-target-' });
  const bfl = await dialect('bfl', BFL_KEY);
  const fal = await dialect('fal', FAL_KEY);
  const set = await request('settings:update', {
    serviceBaseUrls: { bfl: bfl.url, fal: fal.url },
  });
  expect(set).toMatchObject({ ok: true });
  for (const [provider, key] of [
    ['bfl', BFL_KEY],
    ['fal', FAL_KEY],
  ] as const) {
    expect(await request('keys:set', { provider, key, allowWeakStorage: false })).toMatchObject({
      ok: true,
    });
  }
  // Save checked each key at its own service, and only there (keys are checked on Save); the
  // tests below count what a submit sends from here on.
  for (const [service, account, other] of [
    [bfl, 'bfl-user', FAL_KEY],
    [fal, 'fal-user', BFL_KEY],
  ] as const) {
    expect(service.log.requests.some((entry) => entry.account === account)).toBe(true);
    // With its own key, or none (the check's keyless half); never the other service's.
    expect(service.log.requests.every((entry) => entry.account !== null || !entry.auth)).toBe(true);
    expect(JSON.stringify(service.log.requests)).not.toContain(other);
    expect(service.log.requests.some((entry) => entry.route === 'submit')).toBe(false);
    service.log.requests.splice(0);
  }
  const settled = async (items: unknown): Promise<TaskRecord[]> =>
    runtime.core.engine.whenSettled((items as TaskItem[]).map((item) => item.record.localId));
  return { runtime, request, bfl, fal, settled };
}

function value<T>(result: { ok: boolean; value?: unknown; error?: unknown }): T {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('a submit again goes to the task’s own service', () => {
  it('a failed BFL task resubmitted after choosing fal goes to BFL with BFL’s model', async () => {
    const { runtime, request, bfl, fal, settled } = await twoServices();
    const bflTarget = { provider: 'bfl', endpoint: bfl.url } as const;
    const submitted = await request('tasks:submit', {
      request: { prompt: 'fail this lake', model: 'flux-pro-1.1', size: '256x256' },
      target: bflTarget,
      count: 1,
    });
    const [failed] = await settled(value(submitted));
    expect(failed).toMatchObject({ status: 'failed', provider: 'bfl', endpoint: bfl.url });
    // Its reason is the one BFL gave (in `details.error`).
    expect(failed!.error?.message).toBe('The model stopped before finishing the image.');

    // The user picks fal in the form: the choice is remembered as a setting.
    expect(await request('settings:update', { provider: 'fal' })).toMatchObject({ ok: true });
    expect(runtime.credentials.currentEndpoint()).toBe(fal.url);

    // A task's Submit again, and the selection's (only failed ones): the one channel.
    const localIds = [failed!.localId];
    const again = value<{ items: TaskItem[] }>(
      await request('tasks:resend', { localIds, as: 'each' }),
    );
    const many = value<{ items: TaskItem[] }>(
      await request('tasks:resend', { localIds, as: 'each', onlyFailed: true }),
    );
    const made = await settled([...again.items, ...many.items]);
    expect(made).toHaveLength(2);
    for (const record of made) {
      expect(record).toMatchObject({
        provider: 'bfl',
        endpoint: bfl.url,
        request: { prompt: 'fail this lake', model: 'flux-pro-1.1' },
      });
    }
    // Three submits reached BFL under its model's path; fal heard nothing.
    expect(bfl.log.submits.map((entry) => entry.path)).toEqual([
      '/v1/flux-pro-1.1',
      '/v1/flux-pro-1.1',
      '/v1/flux-pro-1.1',
    ]);
    expect(fal.log.requests).toEqual([]);
  });

  it('a new task from the form goes to the service the form names, whatever the setting says', async () => {
    const { runtime, request, bfl, fal, settled } = await twoServices();
    expect(await request('settings:update', { provider: 'bfl' })).toMatchObject({ ok: true });
    const submitted = await request('tasks:submit', {
      request: { prompt: 'a fox', model: 'fal-ai/flux/schnell', size: '256x256' },
      target: { provider: 'fal', endpoint: fal.url },
      count: 1,
    });
    const [done] = await settled(value(submitted));
    expect(done).toMatchObject({ status: 'completed', provider: 'fal', endpoint: fal.url });
    expect(bfl.log.requests).toEqual([]);
    expect(runtime.settings.get().provider).toBe('bfl');
  });

  it('refuses a task whose service has no key at its address any more, sending nothing elsewhere', async () => {
    const { request, bfl, fal, settled } = await twoServices();
    const [failed] = await settled(
      value(
        await request('tasks:submit', {
          request: { prompt: 'fail again', size: '256x256' },
          target: { provider: 'bfl', endpoint: bfl.url },
          count: 1,
        }),
      ),
    );
    expect(await request('keys:clear', { provider: 'bfl' })).toMatchObject({ ok: true });
    const sent = bfl.log.requests.length;
    const refused = await request('tasks:resend', { localIds: [failed!.localId], as: 'each' });
    expect(refused).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.submit.noKeyThere' } },
    });
    expect(bfl.log.requests).toHaveLength(sent);
    expect(fal.log.requests).toEqual([]);
  });
});

/** A server that records whatever reaches it (a page-named address). */
async function listener(): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"stolen"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, server };
}

describe('a target from a compromised page', () => {
  it.each([
    ['an address with no key bound to it', 'bfl', 'stranger', 'error.submit.noKeyThere'],
    ['today’s contract at a stranger', 'pictor', 'stranger', 'error.submit.noKeyThere'],
    ['fal at BFL’s address', 'fal', 'bfl', 'error.submit.otherService'],
    ['BFL at fal’s address', 'bfl', 'fal', 'error.submit.otherService'],
    ['fal on the built-in demo', 'fal', 'demo', 'error.submit.demoDialect'],
    [
      'fal on fal’s demo, which the window does not run',
      'fal',
      'falDemo',
      'error.submit.demoNotRunning',
    ],
    ['today’s contract on fal’s demo', 'pictor', 'falDemo', 'error.submit.demoDialect'],
    ['fal on a demo dialect there is none of', 'fal', 'unknownDemo', 'error.submit.demoDialect'],
    ['an address Pictor sends nothing to', 'bfl', 'file', 'error.service.serviceUrlScheme'],
  ] as const)('is refused: %s, nothing stored or sent', async (_what, provider, where, key) => {
    const { runtime, request, bfl, fal } = await twoServices();
    const stranger = await listener();
    const endpoint = {
      stranger: stranger.url,
      bfl: bfl.url,
      fal: fal.url,
      demo: 'demo:',
      falDemo: 'demo:fal',
      unknownDemo: 'demo:flux',
      file: 'file:///etc/passwd',
    }[where];
    const before = runtime.core.history.count({});
    const refused = await request('tasks:submit', {
      request: { prompt: 'hostile', size: '256x256' },
      target: { provider, endpoint },
      count: 1,
    });
    expect(refused).toMatchObject({ ok: false, error: { sentence: { key } } });
    expect(JSON.stringify(refused)).not.toContain('LEAKCANARY');
    expect(runtime.core.history.count({})).toBe(before);
    expect(stranger.seen).toEqual([]);
    expect(bfl.log.requests).toEqual([]);
    expect(fal.log.requests).toEqual([]);
    expect(runtime.demo.log.requests).toEqual([]);
  });

  it('cannot have a task submitted again that the history does not hold', async () => {
    const { request, bfl, fal } = await twoServices();
    const refused = await request('tasks:resend', { localIds: ['made-up'], as: 'each' });
    expect(refused).toMatchObject({
      ok: false,
      error: { sentence: { key: 'error.library.taskNotInHistory' } },
    });
    expect(bfl.log.requests).toEqual([]);
    expect(fal.log.requests).toEqual([]);
  });
});

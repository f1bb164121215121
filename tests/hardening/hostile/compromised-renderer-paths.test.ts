/**
 * A compromised renderer on a shared gateway: the user's service is /team-a of a gateway that
 * also serves /team-b (another tenant, the attacker's). Script in the page calls the real IPC
 * handlers (recorded-app.ts) to move the service address to every spelling of another path, and
 * to test the connection there; nobody answers the main process's dialog with "send the key".
 * The gateway records every request: the key reaches /team-a/ and nothing else.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { Result } from '../../../shared/ipc/contract';
import { startPathGateway, type PathGateway } from '../../support/path-gateway';
import {
  startRecordedApp,
  type FetchCall,
  type IpcRecord,
  type RecordedApp,
} from '../key-and-bodies/recorded-app';
import { pageTarget } from '../../support/submit-target';
import { ownAddress, savedAddress } from '../../support/own-address';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-team-a-7d41c0b9e2f35a68';
let dir: string;
let services: DemoService[] = [];
let gateway: PathGateway;
let app: RecordedApp;
const fetchCalls: FetchCall[] = [];
const ipc: IpcRecord[] = [];

beforeAll(async () => {
  dir = await tempFolder('hostile-paths');
  services = [
    await startDemoService({ accounts: [{ account: 'a', key: KEY }], durationMs: 100 }),
    await startDemoService({ accounts: [{ account: 'b', key: 'sk-b' }], durationMs: 100 }),
  ];
  gateway = await startPathGateway({ '/team-a': services[0]!.url, '/team-b': services[1]!.url });
  app = await startRecordedApp({
    userDataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetchCalls,
    ipc,
  });
  expect((await app.invoke('settings:update', ownAddress(gateway.url('/team-a')))).ok).toBe(true);
  expect(
    (
      await app.invoke('keys:set', {
        provider: 'pictor',
        skipCheck: true,
        key: KEY,
        allowWeakStorage: true,
      })
    ).ok,
  ).toBe(true);
});

afterAll(async () => {
  await app?.close();
  await gateway?.close();
  for (const service of services) await service.close();
  await removeFolder(dir);
});

/** Every spelling a page might use for "the same gateway, another path". */
function otherPaths(): string[] {
  const { origin } = gateway;
  const port = new URL(origin).port;
  return [
    `${origin}/team-b`,
    `${origin}/team-b/v1`,
    `${origin}/team-a/../team-b`,
    `${origin}/team-a/%2e%2e/team-b`,
    `${origin}/team-a/..%2Fteam-b`,
    `${origin}/team-a%2F..%2Fteam-b`,
    `${origin}/team-a/sub`,
    `${origin}/team-ab`,
    origin,
    `http://localhost:${port}/team-b`,
    `HTTP://127.0.0.1:${port}/TEAM-B`,
  ];
}

describe('a compromised renderer on a shared gateway', () => {
  it('cannot move the key to another path: every change is refused unless the user says so', async () => {
    for (const baseUrl of otherPaths()) {
      const moved = await app.invoke('settings:update', ownAddress(baseUrl));
      expect(moved, baseUrl).toMatchObject({ ok: false });
      const tested = (await app.invoke('service:testConnection', { baseUrl })) as Result<{
        ok: boolean;
      }>;
      expect(tested, baseUrl).not.toMatchObject({ ok: true, value: { ok: true } });
    }
    expect(savedAddress(app.runtime.settings.get())).toBe(gateway.url('/team-a'));
    expect(app.runtime.vault.status().baseUrl).toBe(gateway.url('/team-a'));
  });

  it('sends the key under /team-a only, through everything the page can ask for', async () => {
    const submitted = await app.invoke('tasks:submit', {
      request: { prompt: 'on team a', size: '64x64' },
      target: pageTarget(app.runtime),
      count: 1,
    });
    expect(submitted.ok).toBe(true);
    const tracked = await app.invoke('tasks:track', { taskId: '../../team-b/v1/tasks/x' });
    expect(tracked.ok).toBe(false);
    await expect
      .poll(() => gateway.requests.filter((entry) => entry.tenant === '/team-a').length, UNTIL)
      .toBeGreaterThan(1);
    const keyed = gateway.requests.filter((entry) => entry.authorization === `Bearer ${KEY}`);
    expect(keyed.length).toBeGreaterThan(0);
    expect(keyed.filter((entry) => entry.tenant !== '/team-a').map((entry) => entry.path)).toEqual(
      [],
    );
    expect(gateway.requests.filter((entry) => entry.tenant !== '/team-a')).toEqual([]);
    const keyedCalls = fetchCalls.filter((call) => call.authorization?.includes(KEY));
    for (const call of keyedCalls) {
      expect(call.url.startsWith(`${gateway.url('/team-a')}/`), call.url).toBe(true);
    }
    expect(ipc.filter((record) => record.text.includes(KEY))).toEqual([]);
  });
});

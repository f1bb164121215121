/**
 * The IPC contract's schemas are built on first use (shared/ipc/lazy-contract.ts), and so are the
 * domain's schemas it imports (settings, key and update states, live state, model options, word
 * lists, cancel outcomes: shared/domain/lazy-schema.ts): loading the contract, as main and the
 * CLI's MCP server do at their start, builds no zod schema, and every channel still refuses what
 * it refused, through the bridge main answers the page with (the renderer may be compromised).
 * The recorder (tests/support/zod-builds.ts) sees each schema zod builds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings';
import { EVENT_CHANNEL_NAMES, REQUEST_CHANNEL_NAMES } from '../../../shared/ipc/channels';
import { ipcCaller } from '../../support/ipc';
import { schemasBuiltBy } from '../../support/zod-builds';
import { REPO_ROOT } from '../../support/source-files';

const IPC_DIR = join(REPO_ROOT, 'shared/ipc/');

/** A value import's module (`import type` is erased: it loads nothing). */
const VALUE_IMPORT = /^import (?!type )[^;]*? from '([^']+)';$/gms;

/** Payloads no channel takes: a number, a string, an array, a polluted prototype, a function's text. */
const CRAFTED: readonly [string, unknown][] = [
  ['a number', 42],
  ['a string', 'crafted'],
  ['an array', [{}]],
  ['a prototype to pollute', JSON.parse('{"__proto__":{"polluted":true},"constructor":{}}')],
];

describe('the IPC contract built on first use', () => {
  afterEach(() => {
    vi.resetModules();
  });

  it('builds no zod schema when it is loaded with the domain modules it imports', async () => {
    vi.resetModules();
    // zod's own load is the library's; every module of the repository is loaded after it, fresh.
    await import('zod');
    const files = readdirSync(IPC_DIR).filter((name) => name.endsWith('.ts'));
    const built = await schemasBuiltBy(async () => {
      for (const file of files) await import(/* @vite-ignore */ join(IPC_DIR, file));
    });
    // 238 before the domain's schemas were built on first use (settings' 68, the model options'
    // 54, the live state's 33, the update state's 26, the key status's 20 with its sentence…).
    expect(built).toEqual([]);
    // The domain's schemas are built on their first use, once.
    const { settingsSchema } = await import('../../../shared/domain/settings');
    expect((await schemasBuiltBy(async () => settingsSchema())).length).toBeGreaterThan(0);
    expect(await schemasBuiltBy(async () => settingsSchema())).toEqual([]);
  });

  it('builds no zod schema when its modules are loaded', async () => {
    vi.resetModules();
    const files = readdirSync(IPC_DIR).filter((name) => name.endsWith('.ts'));
    expect(files).toContain('contract.ts');
    // The modules the contract imports from elsewhere (the domain's, i18n's) are loaded first:
    // what they build at their own load is theirs, not the contract's.
    const outside = new Set(
      files.flatMap((file) =>
        [...readFileSync(join(IPC_DIR, file), 'utf8').matchAll(VALUE_IMPORT)].map(
          ([, from = '']) => (from.startsWith('.') ? join(IPC_DIR, from) : from),
        ),
      ),
    );
    for (const from of outside)
      if (!from.startsWith(IPC_DIR)) await import(/* @vite-ignore */ from);
    const built = await schemasBuiltBy(async () => {
      for (const file of files) await import(/* @vite-ignore */ join(IPC_DIR, file));
    });
    expect(built).toEqual([]);
    // The check itself: the recorder sees a channel's schemas built when they are first read.
    const { requests, events } = await import('../../../shared/ipc/contract');
    const first = await schemasBuiltBy(async () => requests['tasks:resend'].input);
    expect(first.length).toBeGreaterThan(0);
    // Once: the same schema after.
    expect(await schemasBuiltBy(async () => requests['tasks:resend'].input)).toEqual([]);
    expect(requests['tasks:resend'].input).toBe(requests['tasks:resend'].input);
    expect(events['tasks:updated']).toBe(events['tasks:updated']);
  });

  it.each(CRAFTED)(
    'every request channel refuses %s before its handler runs',
    async (_what, raw) => {
      const handler = vi.fn();
      const handlers = Object.fromEntries(REQUEST_CHANNEL_NAMES.map((name) => [name, handler]));
      const call = ipcCaller(handlers as unknown as Partial<IpcHandlers>);
      const accepted: string[] = [];
      for (const channel of REQUEST_CHANNEL_NAMES) {
        const answer = await call(channel, raw);
        if (answer.ok || answer.error.code !== 'bad_input') accepted.push(channel);
      }
      expect(accepted).toEqual([]);
      expect(handler).not.toHaveBeenCalled();
    },
  );

  it.each(CRAFTED)('every event channel refuses %s', async (_what, raw) => {
    const { events } = await import('../../../shared/ipc/contract');
    expect(Object.keys(events).sort()).toEqual([...EVENT_CHANNEL_NAMES].sort());
    const accepted = EVENT_CHANNEL_NAMES.filter((name) => events[name].safeParse(raw).success);
    expect(accepted).toEqual([]);
  });

  /** A sample of the channels whose payloads are the domain's schemas: one taken, the rest not. */
  it('refuses crafted settings, key, update and model-option payloads as before', async () => {
    const handler = vi.fn(() => DEFAULT_SETTINGS);
    const call = ipcCaller({ 'settings:update': handler } as unknown as Partial<IpcHandlers>);
    expect(await call('settings:update', { theme: 'dark', serviceBaseUrls: { fal: '' } })).toEqual({
      ok: true,
      value: DEFAULT_SETTINGS,
    });
    const patches: unknown[] = [
      { galleryDir: '/etc' },
      { theme: 'neon' },
      { serviceBaseUrls: { elsewhere: 'https://evil.example' } },
      { serviceBaseUrls: { fal: 'x'.repeat(2_001) } },
      { provider: 'nobody' },
      { defaultCount: 11 },
      { defaultSize: '1024 by 1024' },
      { publicUploadConsent: ['fal', 'fal'] },
      { language: 'xx-XX' },
      { notifications: true, key: 'sk-page' },
    ];
    for (const patch of patches) {
      const answer = await call('settings:update', patch);
      expect(answer, JSON.stringify(patch)).toMatchObject({
        ok: false,
        error: { code: 'bad_input' },
      });
    }
    expect(handler).toHaveBeenCalledTimes(1);

    const { events, requests } = await import('../../../shared/ipc/contract');
    expect(events['settings:changed'].safeParse(DEFAULT_SETTINGS).success).toBe(true);
    const tampered = { ...DEFAULT_SETTINGS, updateMode: 'always' };
    expect(events['settings:changed'].safeParse(tampered).success).toBe(false);
    const status = {
      state: 'ready',
      fingerprint: 'abc',
      backend: 'keychain',
      weak: false,
      message: null,
    };
    expect(events['keys:changed'].safeParse({ provider: 'fal', status }).success).toBe(true);
    for (const bad of [
      { ...status, state: 'unlocked' },
      { ...status, messageSentence: { key: 'error.not.a.sentence' } },
      { ...status, check: { outcome: 'maybe', at: 1 } },
    ]) {
      expect(events['keys:changed'].safeParse({ provider: 'fal', status: bad }).success).toBe(
        false,
      );
    }
    const update = { status: 'available', canInstall: true, version: '2.0.0' };
    expect(events['updates:changed'].safeParse(update).success).toBe(true);
    for (const bad of [
      { ...update, version: '2.0.0; rm -rf' },
      { ...update, progress: 2 },
      { ...update, status: 'installed' },
    ]) {
      expect(events['updates:changed'].safeParse(bad).success).toBe(false);
    }
    const steps = { type: 'integer', min: 1, max: 50 };
    const kept = (params: unknown) => [{ provider: 'fal', model: 'a/b', params }];
    expect(requests['models:kept'].output.safeParse(kept({ steps })).success).toBe(true);
    for (const bad of [
      { 'bad name': steps },
      { steps: { ...steps, type: 'script' } },
      { mode: { type: 'enum', values: [] } },
      { text: { type: 'string', maxLength: -1 } },
    ]) {
      expect(requests['models:kept'].output.safeParse(kept(bad)).success).toBe(false);
    }
  });
});

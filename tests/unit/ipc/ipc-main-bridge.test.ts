import { describe, expect, it, vi } from 'vitest';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import {
  createEmitter,
  mainFrameSenderCheck,
  parsedByContract,
  registerIpcHandlers,
  runRequest,
  type IpcHandlers,
} from '../../../electron/ipc/ipc-main-bridge';
import { REQUEST_CHANNEL_NAMES } from '../../../shared/ipc/channels';
import { silentLogger } from '../../../electron/ports/logger';
import { ServiceError } from '../../../electron/core/service/service-error';
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings';
import { DEMO_TARGET } from '../../support/submit-target';

const APP_ORIGIN = 'pictor-app://app';

function fakeContents() {
  const mainFrame = { url: `${APP_ORIGIN}/index.html` };
  const sent: [string, unknown][] = [];
  const contents = {
    mainFrame,
    isDestroyed: () => false,
    send: (channel: string, payload: unknown) => sent.push([channel, payload]),
  };
  return { contents: contents as unknown as WebContents, mainFrame, sent };
}

function eventFrom(sender: unknown, senderFrame: unknown) {
  return { sender, senderFrame } as Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;
}

const handlers = new Proxy({} as IpcHandlers, {
  get: (_target, channel: string) => {
    if (channel === 'settings:get') return () => ({ ...DEFAULT_SETTINGS, secret: 'sk-leak' });
    if (channel === 'tasks:remove') return () => ({ removed: true });
    if (channel === 'tasks:resume')
      return () => {
        throw new ServiceError({
          kind: 'auth',
          message: 'The service refused the API key (401).',
          mayHaveReachedService: false,
        });
      };
    if (channel === 'tasks:get')
      return () => {
        throw new TypeError('cannot read properties of undefined');
      };
    return () => undefined;
  },
});

describe('sender check', () => {
  const { contents, mainFrame } = fakeContents();
  const check = mainFrameSenderCheck(() => contents, APP_ORIGIN);

  it('trusts only our window’s main frame showing our app', () => {
    expect(check(eventFrom(contents, mainFrame))).toBe(true);
    expect(check(eventFrom(contents, { url: `${APP_ORIGIN}/index.html` }))).toBe(false);
    expect(check(eventFrom({}, mainFrame))).toBe(false);
    expect(check(eventFrom(contents, null))).toBe(false);
    expect(mainFrameSenderCheck(() => null, APP_ORIGIN)(eventFrom(contents, mainFrame))).toBe(
      false,
    );
  });

  it('refuses a main frame that navigated elsewhere', () => {
    const other = fakeContents();
    other.mainFrame.url = 'https://evil.example/';
    const otherCheck = mainFrameSenderCheck(() => other.contents, APP_ORIGIN);
    expect(otherCheck(eventFrom(other.contents, other.mainFrame))).toBe(false);
    other.mainFrame.url = 'not a url';
    expect(otherCheck(eventFrom(other.contents, other.mainFrame))).toBe(false);
  });
});

describe('runRequest', () => {
  const trusted = () => true;
  const event = eventFrom({}, {});
  const bridge = { handlers, isTrusted: trusted, logger: silentLogger };

  it('refuses an untrusted sender without running the handler', async () => {
    const spy = vi.fn();
    const result = await runRequest({
      channel: 'tasks:remove',
      event,
      raw: { localId: 'a' },
      handlers: { ...handlers, 'tasks:remove': spy },
      isTrusted: () => false,
      logger: silentLogger,
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(spy).not.toHaveBeenCalled();
  });

  it.each([
    ['tasks:remove', {}],
    ['tasks:remove', { localId: 42 }],
    ['tasks:remove', { localId: 'a', extra: true }],
    ['tasks:submit', { request: { prompt: '' }, target: DEMO_TARGET, count: 1 }],
    ['tasks:submit', { request: { prompt: 'x' }, target: DEMO_TARGET, count: 1_000 }],
    ['tasks:submit', { request: { prompt: 'x' }, count: 1 }],
    [
      'tasks:submit',
      { request: { prompt: 'x' }, target: { provider: 'openai', endpoint: 'demo:' }, count: 1 },
    ],
    [
      'tasks:submit',
      { request: { prompt: 'x' }, target: { provider: 'fal', endpoint: '' }, count: 1 },
    ],
    [
      'tasks:submit',
      {
        request: { prompt: 'x' },
        target: { provider: 'fal', endpoint: 'https://queue.fal.run', key: 'k' },
        count: 1,
      },
    ],
    ['settings:update', { theme: 'purple' }],
    ['settings:update', { __proto__: { polluted: true }, theme: 'dark', unknown: 1 }],
  ] as const)('refuses bad input to %s with a sentence and the detail', async (channel, input) => {
    const result = await runRequest({ ...bridge, channel, event, raw: input });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'bad_input', message: expect.any(String), detail: expect.any(String) },
    });
  });

  it.each([
    ['keys:set', { provider: 'pictor', allowWeakStorage: 'no' }],
    ['keys:set', { provider: 'fal', allowWeakStorage: false, skipCheck: 'yes' }],
    ['service:testConnection', { baseUrl: 42 }],
    ['service:testService', { provider: 'dashscope', baseUrl: 'https://elsewhere.example' }],
  ] as const)(
    'refuses a bad %s without echoing any of the key in the detail',
    async (channel, rest) => {
      const key = `sk-${'secret'.repeat(1_000)}`;
      const result = await runRequest({ ...bridge, channel, event, raw: { key, ...rest } });
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'bad_input',
          message: 'Pictor could not read that request.',
          sentence: { key: 'error.library.badRequest' },
        },
      });
      expect(JSON.stringify(result)).not.toContain('secret');
    },
  );

  it('returns the value, with fields outside the output schema dropped', async () => {
    const result = await runRequest({ ...bridge, channel: 'settings:get', event, raw: undefined });
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result)).not.toContain('sk-leak');
  });

  it('turns a user-facing error into its sentence and anything else into a generic one with detail', async () => {
    expect(
      await runRequest({ ...bridge, channel: 'tasks:resume', event, raw: { localId: 'a' } }),
    ).toEqual({
      ok: false,
      error: { code: 'failed', message: 'The service refused the API key (401).' },
    });
    const bug = await runRequest({ ...bridge, channel: 'tasks:get', event, raw: { localId: 'a' } });
    expect(bug).toMatchObject({
      ok: false,
      error: { code: 'failed', detail: expect.stringContaining('TypeError') },
    });
    expect(bug.ok === false && bug.error.message).toMatch(/Nothing was lost/);
  });
});

describe('registerIpcHandlers and the emitter', () => {
  it('registers every contract channel, and removes them', () => {
    const ipcMain = { handle: vi.fn(), removeHandler: vi.fn() };
    const remove = registerIpcHandlers(ipcMain, handlers, () => true, silentLogger);
    expect(ipcMain.handle.mock.calls.map(([channel]) => channel).sort()).toEqual(
      [...REQUEST_CHANNEL_NAMES].sort(),
    );
    remove();
    expect(ipcMain.removeHandler).toHaveBeenCalledTimes(REQUEST_CHANNEL_NAMES.length);
  });

  it('sends only events that match the contract, stripped to their schema', () => {
    const { contents, sent } = fakeContents();
    const emit = createEmitter(() => contents, silentLogger);
    emit('network:changed', { online: false, extra: 'dropped' } as never);
    emit('network:changed', { online: 'yes' } as never);
    expect(sent).toEqual([['network:changed', { online: false }]]);
    createEmitter(() => null, silentLogger)('network:changed', { online: true });
  });

  it('sends a payload unparsed only on the channel whose contract parsed it', () => {
    const { contents, sent } = fakeContents();
    const emit = createEmitter(() => contents, silentLogger);
    const logged: string[] = [];
    const logger = { ...silentLogger, error: (message: string) => logged.push(message) };
    const emitLogged = createEmitter(() => contents, logger);
    // Marked as parsed by tasks:updated's contract (its sender parsed each change): on that
    // channel it goes as it is, the very object.
    const batch = parsedByContract('tasks:updated', [{ change: 'removed', localId: 'a' }]);
    emit('tasks:updated', batch);
    expect(sent.at(-1)?.[1]).toBe(batch);
    // The same object on another channel passed no contract of that channel: it is parsed,
    // stripped to that channel's schema or dropped, never sent as it is.
    const marked = parsedByContract('tasks:updated', { online: false, secret: 'sk-leak' } as never);
    emit('network:changed', marked as never);
    expect(sent.at(-1)).toEqual(['network:changed', { online: false }]);
    emitLogged('settings:changed' as never, batch as never);
    expect(sent).toHaveLength(2);
    expect(logged).toEqual(['ipc event dropped: does not match the contract']);
  });
});

describe('channel name lists', () => {
  it('name exactly the contract’s channels (the preload uses the lists, not the schemas)', async () => {
    const { requests, events } = await import('../../../shared/ipc/contract');
    const { REQUEST_CHANNEL_NAMES, EVENT_CHANNEL_NAMES } =
      await import('../../../shared/ipc/channels');
    expect([...REQUEST_CHANNEL_NAMES].sort()).toEqual(Object.keys(requests).sort());
    expect([...EVENT_CHANNEL_NAMES].sort()).toEqual(Object.keys(events).sort());
  });
});

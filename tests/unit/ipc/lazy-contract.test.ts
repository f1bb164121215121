/**
 * The IPC contract's schemas are built on first use (shared/ipc/lazy-contract.ts): loading the
 * contract, as main and the CLI's MCP server do at their start, builds no zod schema, and every
 * channel still refuses what it refused, through the bridge main answers the page with (the
 * renderer may be compromised). The recorder sees each schema zod builds: zod gives every schema
 * its internals with one `Object.defineProperty(schema, '_zod', …)`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { EVENT_CHANNEL_NAMES, REQUEST_CHANNEL_NAMES } from '../../../shared/ipc/channels';
import { ipcCaller } from '../../support/ipc';

const IPC_DIR = fileURLToPath(new URL('../../../shared/ipc/', import.meta.url));

/** A value import's module (`import type` is erased: it loads nothing). */
const VALUE_IMPORT = /^import (?!type )[^;]*? from '([^']+)';$/gms;

/** Calls `load` with every zod schema built meanwhile counted by its type. */
async function schemasBuiltBy(load: () => Promise<unknown>): Promise<string[]> {
  const built: string[] = [];
  const define = Object.defineProperty;
  const recorder = function <T>(target: T, key: PropertyKey, descriptor: PropertyDescriptor): T {
    const value = descriptor.value as { def?: { type?: string } } | undefined;
    if (key === '_zod' && value?.def !== undefined) built.push(String(value.def.type));
    return define(target, key, descriptor);
  };
  Object.defineProperty = recorder as typeof Object.defineProperty;
  try {
    await load();
  } finally {
    Object.defineProperty = define;
  }
  return built;
}

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
});

/**
 * A page's request is parsed by zod's interpreter (electron/ipc/ipc-main-bridge.ts, `runRequest`):
 * no parser is generated for a channel's input schema (zod's `new Function`, at a schema's first
 * parse), which cost the session's first keypress 1–2.5 ms on `triage:apply` and pays nothing
 * back on inputs parsed once each. Counted at the source: every function zod builds goes through
 * the global `Function`, stubbed here to note the bodies it is given (zod's parsers take
 * `payload`). A file of its own: its channel schemas must not have been parsed in this thread.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { requests } from '../../../shared/ipc/contract';
import { ipcCaller } from '../../support/ipc';

afterEach(() => vi.unstubAllGlobals());

/** Counts the parsers zod generates from now on. */
function countGeneratedParsers(): () => number {
  const bodies: string[] = [];
  vi.stubGlobal(
    'Function',
    new Proxy(Function, {
      construct(target, args: unknown[]) {
        bodies.push(String(args.at(-1)));
        return Reflect.construct(target, args) as object;
      },
    }),
  );
  return () => bodies.filter((body) => /\bpayload\b/.test(body)).length;
}

const rating = {
  images: [
    { localId: 'task-1', index: 0 },
    { localId: 'task-2', index: 1 },
  ],
  change: { kind: 'rating', rating: 4 },
};

describe("a page's request", () => {
  it('is parsed without a parser generated for its schema, first time or tenth', async () => {
    const seen: unknown[] = [];
    const handlers = {
      // Not answered: the input's parse is what is counted, not the answer's.
      'triage:apply': (input: unknown) => {
        seen.push(input);
        throw new Error('not answered here');
      },
    } as unknown as Partial<IpcHandlers>;
    const request = ipcCaller(handlers);
    const generated = countGeneratedParsers();
    for (let n = 0; n < 10; n += 1) {
      expect(await request('triage:apply', rating)).toMatchObject({ ok: false });
    }
    const refused = await request('triage:apply', { ...rating, change: { kind: 'rating' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    // Every valid request reached its handler, parsed whole.
    expect(seen).toHaveLength(10);
    expect(seen[0]).toEqual(rating);
    expect(generated()).toBe(0);
    // The count sees zod's parsers: the same schema parsed zod's default way generates them.
    expect(requests['triage:apply'].input.safeParse(rating).success).toBe(true);
    expect(generated()).toBeGreaterThan(0);
  });
});

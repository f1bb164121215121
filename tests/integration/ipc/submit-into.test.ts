/**
 * `tasks:submit`'s `board` ("Generate into") over a real AppRuntime and the IPC bridge that parses
 * every request, on the built-in demo service on loopback: the images join the board, a new one
 * is made; a board the rules refuse comes back as its sentence, and one past the schema's bound
 * (or not a string, or beside a field the contract does not know) is refused by the schema;
 * either way nothing is stored or sent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_BOARD_PATH_UNITS } from '../../../shared/domain/triage';
import { sentence } from '../../../shared/i18n/sentence';
import { okValue } from '../../support/ipc';
import { wiredIpc } from '../../support/wired-ipc';
import { DEMO_TARGET } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app() {
  const { runtime, request } = await wiredIpc(cleanups, { prefix: 'pictor-into-ipc-' });
  const submit = (extra: Record<string, unknown>) =>
    request('tasks:submit', {
      request: { prompt: 'a lighthouse at dusk', size: '64x64' },
      target: DEMO_TARGET,
      count: 2,
      ...extra,
    });
  return { runtime, request, submit };
}

describe('tasks:submit into a board', () => {
  it('makes the board and puts every image of the submit into it as it arrives', async () => {
    const { runtime, request, submit } = await app();
    const items = okValue(await submit({ board: 'Clients/Acme' }));
    expect(items.map((item) => item.record.board)).toEqual(['Clients/Acme', 'Clients/Acme']);
    // Listed as the page asks for the boards, before any image arrived.
    expect(okValue(await request('triage:library')).boards.map((row) => row.path)).toEqual([
      'Clients',
      'Clients/Acme',
    ]);
    const { history } = runtime.core;
    const ids = items.map((item) => item.record.localId);
    await vi.waitFor(() => {
      const done = ids.map((id) => history.get(id));
      if (!done.every((r) => r?.status === 'completed' && r.images[0]?.state === 'saved'))
        throw new Error('still generating');
    }, UNTIL);
    const inBoard = history.listImages({ board: 'clients/acme' }).items.map((item) => item.localId);
    expect(inBoard.sort()).toEqual([...ids].sort());
  });

  it('answers a path the rules refuse with its sentence; nothing is stored or made', async () => {
    const { runtime, submit } = await app();
    const refused = await submit({ board: 'Clients//Acme' });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'bad_input', sentence: sentence('error.triage.boardEmpty') },
    });
    expect(runtime.core.history.count()).toBe(0);
    expect(runtime.core.boards.list()).toEqual([]);
  });

  it.each([
    ['an empty string', ''],
    ['a path past the bound', 'x'.repeat(MAX_BOARD_PATH_UNITS + 1)],
    ['a number', 7],
    ['null', null],
  ])('refuses %s as the board in the schema', async (_what, board) => {
    const { runtime, submit } = await app();
    expect(await submit({ board })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(runtime.core.history.count()).toBe(0);
  });

  it('keeps the input strict: a field it does not know is refused', async () => {
    const { runtime, submit } = await app();
    expect(await submit({ board: 'A', boards: ['B'] })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    expect(runtime.core.history.count()).toBe(0);
  });
});

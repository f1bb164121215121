/**
 * The gallery folder's tickets (core/library/folder-choices.ts) through the real request path: a
 * ticket names only the folder of the user's last choice in main's dialog. A later pick ends it,
 * a cancelled one too, and so does the page's question about it cancelled; it expires on the
 * runtime's clock (the manual clock here); a dialog that
 * closes after a later pick began gives none; an apply refused while a move runs leaves it. The runtime is a recorder: what matters is whether the library was ever moved or
 * opened, and where.
 */
import { mkdir, symlink } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FOLDER_TICKET_TTL_MS, FolderChoices } from '../../../electron/core/library/folder-choices';
import { CoreOperations } from '../../../electron/core/operations/core-operations';
import type { Clock } from '../../../electron/ports/clock';
import { libraryHandlers, type FolderRuntime } from '../../../electron/ipc/library-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { ManualClock } from '../../fakes/manual-clock';
import { ipcCaller } from '../../support/ipc';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
beforeEach(async () => {
  dir = await tempFolder('tickets');
  for (const name of ['library', 'A', 'B']) await mkdir(join(dir, name));
});
afterEach(() => removeFolder(dir));

/** Main's folder dialog, answered by the test one pick at a time. */
class ScriptedDialog {
  private readonly answers: ((path: string | null) => void)[] = [];
  readonly choose = (): Promise<string | null> =>
    new Promise((resolve) => this.answers.push(resolve));
  /** Answers the oldest open dialog. */
  answer(path: string | null): void {
    const next = this.answers.shift();
    if (!next) throw new Error('No dialog is open.');
    next(path);
  }
}

function setup(clock: Pick<Clock, 'now'> = new ManualClock()) {
  const dialog = new ScriptedDialog();
  const used: string[] = [];
  /** Set by {@link holdNextMove}: the next move waits for it. */
  let held: Promise<undefined> | null = null;
  const runtime: FolderRuntime = {
    galleryDir: () => join(dir, 'library'),
    moveGalleryTo: async (folder) => {
      used.push(`move ${folder}`);
      const waitFor = held;
      held = null;
      await waitFor;
      return { moved: 1, leftBehind: [join(folder, 'a link the move left')] };
    },
    openGalleryAt: (folder) => {
      used.push(`open ${folder}`);
      return Promise.resolve({ imported: 0, skipped: [] });
    },
  };
  // The core's operations: only the folder operation runs here, so nothing else is needed.
  const operations = new CoreOperations({
    history: {} as never,
    gallery: {} as never,
    intake: {} as never,
    records: { get: () => undefined },
    clock: new ManualClock(),
  });
  const handlers = libraryHandlers({
    runtime,
    choices: new FolderChoices(clock),
    operations,
    chooseFolder: dialog.choose,
    emit: () => undefined,
  }) as IpcHandlers;
  const call = ipcCaller(handlers);
  /** Opens the dialog, answers it with `path`, and returns the ticket (or null). */
  const pick = async (path: string | null): Promise<string | null> => {
    const result = call('library:pick');
    dialog.answer(path);
    const answered = await result;
    if (!answered.ok) throw new Error(answered.error.message);
    return (answered.value as { choice: { ticket: string } | null }).choice?.ticket ?? null;
  };
  const apply = (ticket: string | null, action: 'move' | 'open' = 'move') =>
    call(action === 'move' ? 'library:move' : 'library:open', { ticket });
  /** The next move waits until the returned function is called. */
  const holdNextMove = (): (() => void) => {
    let release: (value: undefined) => void = () => undefined;
    held = new Promise<undefined>((resolve) => (release = resolve));
    return () => release(undefined);
  };
  return { dialog, used, call, pick, apply, holdNextMove };
}

const REFUSED = { ok: false, error: { message: expect.stringMatching(/no longer valid/) } };

describe('a folder ticket', () => {
  it('ends when the next pick is cancelled: the folder turned down is never used', async () => {
    const { pick, apply, used } = setup();
    const ticket = await pick(join(dir, 'A'));
    expect(await pick(null)).toBeNull();

    expect(await apply(ticket, 'move')).toMatchObject(REFUSED);
    expect(await apply(ticket, 'open')).toMatchObject(REFUSED);
    expect(used).toEqual([]);
  });

  it('ends when the page cancels its question about the folder', async () => {
    const { call, pick, apply, used } = setup();
    const ticket = await pick(join(dir, 'A'));
    expect(await call('library:cancel')).toMatchObject({
      ok: true,
      value: { cancelling: false },
    });

    expect(await apply(ticket, 'move')).toMatchObject(REFUSED);
    expect(await apply(ticket, 'open')).toMatchObject(REFUSED);
    expect(used).toEqual([]);
  });

  it('ends while the next dialog is open, and stays ended when it is cancelled', async () => {
    const { call, dialog, pick, apply, used } = setup();
    const ticket = await pick(join(dir, 'A'));
    const second = call('library:pick');
    expect(await apply(ticket)).toMatchObject(REFUSED);
    dialog.answer(null);
    expect(await second).toMatchObject({ ok: true, value: { choice: null } });
    expect(await apply(ticket)).toMatchObject(REFUSED);
    expect(used).toEqual([]);
  });

  it('is replaced by a second pick: only the second folder can be used', async () => {
    const { pick, apply, used } = setup();
    const first = await pick(join(dir, 'A'));
    const second = await pick(join(dir, 'B'));

    expect(await apply(first)).toMatchObject(REFUSED);
    expect(await apply(second)).toMatchObject({ ok: true, value: { outcome: 'moved' } });
    expect(used).toEqual([`move ${join(dir, 'B')}`]);
  });

  it('comes from the last pick only, when an earlier dialog closes after it', async () => {
    const { call, dialog, apply, used } = setup();
    const earlier = call('library:pick');
    const later = call('library:pick');
    dialog.answer(join(dir, 'A'));
    dialog.answer(join(dir, 'B'));
    expect(await earlier).toMatchObject({ ok: true, value: { choice: null } });
    const answered = await later;
    const ticket = (answered as { value: { choice: { ticket: string } } }).value.choice.ticket;

    expect(await apply(ticket)).toMatchObject({ ok: true });
    expect(used).toEqual([`move ${join(dir, 'B')}`]);
  });

  it.each([
    ['is still good at its last moment', FOLDER_TICKET_TTL_MS, true],
    ['expires a moment later', FOLDER_TICKET_TTL_MS + 1, false],
  ])('%s', async (_name, after, good) => {
    const clock = new ManualClock();
    const { pick, apply, used } = setup(clock);
    const ticket = await pick(join(dir, 'A'));
    await clock.advance(after);

    const result = await apply(ticket, 'open');

    expect(result).toMatchObject(good ? { ok: true } : REFUSED);
    expect(used).toEqual(good ? [`open ${join(dir, 'A')}`] : []);
    // Used or expired, it is gone either way.
    expect(await apply(ticket, 'open')).toMatchObject(REFUSED);
  });

  it('is kept when the apply is refused because a move is under way, and works after it', async () => {
    const { pick, apply, used, holdNextMove } = setup();
    const release = holdNextMove();
    const moving = apply(await pick(join(dir, 'A')));
    await expect.poll(() => used, UNTIL).toEqual([`move ${join(dir, 'A')}`]);
    const ticket = await pick(join(dir, 'B'));

    expect(await apply(ticket)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/already being moved/) },
    });
    release();
    expect(await moving).toMatchObject({
      ok: true,
      value: { outcome: 'moved', moved: 1, leftBehind: 1 },
    });
    expect(await apply(ticket)).toMatchObject({ ok: true, value: { outcome: 'moved' } });
    expect(used).toEqual([`move ${join(dir, 'A')}`, `move ${join(dir, 'B')}`]);
  });

  it('counts as expired when the clock was set back since the pick', async () => {
    let now = 1_000_000;
    const { pick, apply, used } = setup({ now: () => now });
    const ticket = await pick(join(dir, 'A'));
    now -= 60_000;
    expect(await apply(ticket)).toMatchObject(REFUSED);
    expect(used).toEqual([]);
  });
});

describe('a folder that is the library’s own', () => {
  /** Picks `path` and returns main's whole answer. */
  const choose = async (
    call: ReturnType<typeof setup>['call'],
    dialog: ScriptedDialog,
    path: string,
  ) => {
    const result = call('library:pick');
    dialog.answer(path);
    const answered = await result;
    if (!answered.ok) throw new Error(answered.error.message);
    return (answered.value as { choice: { ticket: string; same: boolean } }).choice;
  };

  it.each([
    ['a link to it', () => join(dir, 'link to library')],
    ['with a trailing separator', () => join(dir, 'library') + sep],
    ['through a `..` segment', () => `${join(dir, 'A')}${sep}..${sep}library`],
  ])('is found the same, %s, and neither a move nor an open touches it', async (_n, spelled) => {
    // A junction on Windows: a link to a folder that needs no special right there.
    await symlink(join(dir, 'library'), join(dir, 'link to library'), 'junction');
    const { call, dialog, apply, used } = setup();

    for (const action of ['move', 'open'] as const) {
      const choice = await choose(call, dialog, spelled());
      expect(choice.same).toBe(true);
      expect(await apply(choice.ticket, action)).toMatchObject({
        ok: true,
        value: { path: join(dir, 'library'), moved: 0, leftBehind: 0, imported: 0 },
      });
    }
    expect(used).toEqual([]);
  });

  it('is told apart from another folder, and from a link to another folder', async () => {
    await symlink(join(dir, 'A'), join(dir, 'link to A'), 'junction');
    const { call, dialog } = setup();
    expect((await choose(call, dialog, join(dir, 'A'))).same).toBe(false);
    expect((await choose(call, dialog, join(dir, 'link to A'))).same).toBe(false);
    expect((await choose(call, dialog, join(dir, 'not there'))).same).toBe(false);
  });
});

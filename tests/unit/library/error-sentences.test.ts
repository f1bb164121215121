/**
 * The library area's failures reach a person as catalogue sentences (shared/i18n/errors/
 * library.ts): the task engine's refusals and task errors, the history database's (a real file
 * that is not one, a cursor that does not decode), an archive or folder refused or left out in
 * part (real crafted ZIPs, a real symbolic link, a real file in the way), the library handlers'
 * and the IPC bridge's refusals. Each carries a sentence whose key is in the area, whose English
 * is the error's message, and which the pseudo-locale renders differently with every value kept.
 * A source scan proves no error of the area is made from a string any more.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { localeInfo } from '../../../shared/domain/locales';
import { taskErrorSchema } from '../../../shared/domain/task-record';
import { MainCatalogue } from '../../../shared/i18n/main-catalogue';
import { libraryErrors } from '../../../shared/i18n/errors/library';
import {
  englishText,
  sentence,
  sentenceSchema,
  type Sentence,
} from '../../../shared/i18n/sentence';
import { requests } from '../../../shared/ipc/contract';
import { EngineInputError } from '../../../electron/core/engine/engine-types';
import { UserFacingError } from '../../../electron/core/errors/user-facing-error';
import { interruptedSubmit } from '../../../electron/core/engine/task-transitions';
import { HistoryError } from '../../../electron/core/history/history-error';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { ArchiveRefusedError } from '../../../electron/core/library/archive/archive-errors';
import { exportLibrary } from '../../../electron/core/library/archive/export-library';
import { importLibrary } from '../../../electron/core/library/archive/import-library';
import { toIpcError } from '../../../electron/ipc/ipc-errors';
import { archiveHandlers } from '../../../electron/ipc/archive-handlers';
import { runRequest, type IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { silentLogger } from '../../../electron/ports/logger';
import { ipcCaller } from '../../support/ipc';
import { makeTaskRecord } from '../../support/task-records';
import { TARGET, engineHarness } from '../core/engine/engine-harness';
import { exportEntries, taskFiles, writeZip } from '../core/library/archive/crafted-export';
import {
  addTask,
  makeLibrary,
  operationsOn,
  type Library,
} from '../core/library/archive/library-fixture';
import { removeFolder } from '../../support/temp-folders';

const pseudo = new MainCatalogue(localeInfo('en-XA')!, undefined);

/**
 * `said` is a sentence of this area that reads as `message` in English, reads otherwise in the
 * pseudo-locale, keeps every value there, and survives the schema stored and sent sentences pass.
 */
function expectAreaSentence(said: Sentence | undefined, message: string, values: string[] = []) {
  expect(said).toBeDefined();
  const { key, params } = said!;
  expect(Object.hasOwn(libraryErrors, key)).toBe(true);
  expect(englishText(said!)).toBe(message);
  expect(sentenceSchema().parse(said)).toEqual(said);
  const shown = pseudo.text(key, params);
  expect(shown).not.toBe(message);
  for (const value of values) {
    expect(message).toContain(value);
    expect(shown).toContain(value);
  }
}

/** The error `work` throws (or rejects with), checked to be an instance of `type`. */
async function thrown<T>(type: abstract new (...args: never[]) => T, work: () => unknown) {
  let caught: unknown = null;
  try {
    await work();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(type);
  return caught as T & { readonly message: string; readonly sentence?: Sentence };
}

const libraries: Library[] = [];
afterEach(async () => {
  for (const library of libraries.splice(0)) {
    library.history.close();
    await removeFolder(library.dir);
  }
});

async function library(): Promise<Library> {
  const made = await makeLibrary();
  libraries.push(made);
  return made;
}

describe('task engine', () => {
  it('refuses a bad submit and a task it cannot resume with sentences, also over IPC', async () => {
    const h = engineHarness();
    const count = await thrown(EngineInputError, () =>
      h.engine.submit({ prompt: 'x' }, TARGET, 101),
    );
    expect(count.sentence?.key).toBe('error.library.taskCountRange');
    expectAreaSentence(count.sentence, count.message, ['100']);
    const ipc = toIpcError(count);
    expect(ipc.sentence).toEqual(count.sentence);

    const empty = await thrown(EngineInputError, () => h.engine.submit({ prompt: '   ' }, TARGET));
    expect(empty.sentence?.key).toBe('error.library.promptEmpty');
    expectAreaSentence(empty.sentence, empty.message);

    const missing = await thrown(EngineInputError, () => h.engine.resumeTask('no-such-task'));
    expectAreaSentence(missing.sentence, missing.message);
  });

  it('a submit cut short by a closed app records a stored sentence on its task', () => {
    const record = makeTaskRecord({ localId: 'cut', status: 'submitting' }, Date.UTC(2025, 0, 1));
    const after = interruptedSubmit(record, Date.UTC(2025, 0, 2));
    expect(after.status).toBe('submit_unknown');
    const error = taskErrorSchema().parse(after.error);
    expect(error.sentence?.key).toBe('error.library.interruptedSubmit');
    expectAreaSentence(error.sentence, error.message);
  });
});

describe('task engine downloads and answers', () => {
  it('an answer without images, an entry without an address and a failed save carry sentences', async () => {
    const h = engineHarness({ maxDownloadAttempts: 2 });
    h.client.outcomeFor = (request) =>
      request.prompt === 'none'
        ? { status: 'completed', imageUrls: [] }
        : { status: 'completed', imageUrls: ['https://cdn.example.com/a.png', null] };
    h.gallery.script = () => {
      throw Object.assign(new Error('disk gone'), { code: 'ENOSPC' });
    };
    await h.engine.submit({ prompt: 'none' }, TARGET);
    await h.engine.submit({ prompt: 'two' }, TARGET);
    await h.clock.advance(120_000);
    const none = taskErrorSchema().parse(h.history.get('local-1')!.error);
    expect(none.sentence?.key).toBe('error.library.noImagesListed');
    expectAreaSentence(none.sentence, none.message);
    const [saved, missing] = h.history.get('local-2')!.images;
    expect(missing?.errorSentence?.key).toBe('error.library.imageNoAddress');
    expectAreaSentence(missing?.errorSentence, missing!.error!);
    // Out of attempts for this run: the same sentence, saying when Pictor tries again.
    expect(saved?.errorSentence).toEqual({
      key: 'error.library.imageNotSaved',
      params: { reason: 'ENOSPC', last: 'yes' },
    });
    expectAreaSentence(saved?.errorSentence, saved!.error!, ['ENOSPC']);
    expect(saved!.error).toMatch(/at the next start, or when you choose Retry\.$/);
  });

  it('a failure the service did not explain keeps Pictor’s sentence on the task', async () => {
    const h = engineHarness();
    const said = sentence('error.library.requestInvalid');
    const failed = { status: 'failed', message: englishText(said), sentence: said } as const;
    h.client.outcomeFor = () => failed;
    await h.engine.submit({ prompt: 'fails' }, TARGET);
    await h.clock.advance(120_000);
    const record = h.history.get('local-1')!;
    expect(record.status).toBe('failed');
    expect(record.error).toEqual({ kind: 'task_failed', message: failed.message, sentence: said });
  });
});

describe('history database', () => {
  it('a file that is not a history database is refused with its path in the sentence', async () => {
    const { dir } = await library();
    const file = join(dir, 'not-a-database.sqlite');
    await writeFile(file, 'this is not SQLite, just text long enough to be read as a header');
    const error = await thrown(HistoryError, () => HistoryStore.open(file));
    expect(error.sentence?.key).toBe('error.library.historyNotDatabase');
    expectAreaSentence(error.sentence, error.message, [file]);
  });

  it('a page cursor that does not decode is refused with a sentence', async () => {
    const { history } = await library();
    const error = await thrown(HistoryError, () =>
      history.list({ cursor: 'not-a-cursor', limit: 10 }),
    );
    expectAreaSentence(error.sentence, error.message);
  });
});

describe('library archive', () => {
  it('refuses a crafted archive as a whole with a whole sentence', async () => {
    const target = await library();
    const { files } = await taskFiles();
    const path = await writeZip(
      target.dir,
      exportEntries(files, [{ name: '../evil.png', data: Buffer.from('boom') }]),
    );
    const error = await thrown(ArchiveRefusedError, () =>
      importLibrary({ intake: target.intake, history: target.history, source: path }),
    );
    expect(error.sentence).toEqual({
      key: 'error.library.archiveEntryPath',
      params: { rule: 'leaves' },
    });
    expectAreaSentence(error.sentence, error.message);
    expect(error.message).toContain('leaves the gallery folder');

    const many = await thrown(ArchiveRefusedError, () =>
      importLibrary({
        intake: target.intake,
        history: target.history,
        source: path,
        limits: { maxEntries: 3 },
      }),
    );
    expectAreaSentence(many.sentence, many.message, ['3']);
  });

  it('a manifest that is not JSON names the archive, a folder the folder', async () => {
    const target = await library();
    const { files } = await taskFiles();
    const entries = exportEntries(files).map((entry) =>
      entry.name === 'pictor-export.json' ? { ...entry, data: Buffer.from('{not json') } : entry,
    );
    const archive = await thrown(ArchiveRefusedError, async () =>
      importLibrary({
        intake: target.intake,
        history: target.history,
        source: await writeZip(target.dir, entries),
      }),
    );
    expect(archive.message).toMatch(/^Pictor did not import this archive: The manifest/);
    expectAreaSentence(archive.sentence, archive.message);
    const folder = join(target.dir, 'unpacked');
    await mkdir(folder);
    await writeFile(join(folder, 'pictor-export.json'), '{not json');
    const unpacked = await thrown(ArchiveRefusedError, () =>
      importLibrary({ intake: target.intake, history: target.history, source: folder }),
    );
    expect(unpacked.message).toMatch(/^Pictor did not import this folder: The manifest/);
    expectAreaSentence(unpacked.sentence, unpacked.message);
  });

  it('a link in a folder is left out with a sentence that survives the IPC summary', async () => {
    const from = await library();
    const target = await library();
    const task = await addTask(from, ['png']);
    await symlink(join(from.dir, 'history.sqlite'), join(from.root, task.folder!, 'linked.png'));
    const { handlers } = handlersOn(target, from.root);
    const answer = await handlers['archive:import']({ from: 'folder' }, context);
    const { summary } = requests['archive:import'].output.parse(answer);
    const refused = summary?.refused.find((item) => item.path.endsWith('linked.png'));
    expect(refused?.reasonSentence?.key).toBe('error.library.entryIsLink');
    expectAreaSentence(refused?.reasonSentence, refused!.reason);
  });

  it('an export onto a file that exists is refused with the file in the sentence', async () => {
    const from = await library();
    await addTask(from, ['png']);
    const target = join(from.dir, 'already-there.zip');
    await writeFile(target, 'mine');
    const error = await thrown(UserFacingError, () =>
      exportLibrary({ root: from.root, history: from.history, target, pictorVersion: '1.0.0' }),
    );
    const ipc = toIpcError(error);
    expect(ipc.sentence?.key).toBe('error.library.exportTargetExists');
    expectAreaSentence(ipc.sentence, ipc.message, [target]);
    expect(readFileSync(target, 'utf8')).toBe('mine');
  });
});

const context = { sender: {} as never };

function handlersOn(target: Library, source: string) {
  return {
    handlers: archiveHandlers({
      operations: operationsOn(target),
      dialogs: {
        chooseExportFile: async () => join(target.dir, 'out.zip'),
        chooseImportSource: async () => source,
      },
      version: () => '1.0.0',
      emit: () => undefined,
    }),
  };
}

describe('IPC refusals', () => {
  it('a second library operation while one runs is refused with a sentence', async () => {
    const target = await library();
    let release: (path: string | null) => void = () => undefined;
    const handlers = archiveHandlers({
      operations: operationsOn(target),
      dialogs: {
        chooseExportFile: async () => null,
        chooseImportSource: () =>
          new Promise((resolve) => {
            release = resolve;
          }),
      },
      version: () => '1.0.0',
      emit: () => undefined,
    });
    const first = handlers['archive:import']({ from: 'folder' }, context);
    const busy = await thrown(Error, () => handlers['archive:export']({}, context));
    const ipc = toIpcError(busy);
    expect(ipc.sentence?.key).toBe('error.library.busy');
    expectAreaSentence(ipc.sentence, ipc.message);
    release(null);
    expect(await first).toEqual({ summary: null });
  });

  it('a request from another sender, or one that does not parse, is refused with a sentence', async () => {
    const base = {
      handlers: {} as IpcHandlers,
      logger: silentLogger,
      event: { sender: {}, senderFrame: null } as unknown as Pick<
        IpcMainInvokeEvent,
        'sender' | 'senderFrame'
      >,
    };
    const untrusted = await runRequest({
      ...base,
      channel: 'settings:get',
      raw: undefined,
      isTrusted: () => false,
    });
    expect(untrusted.ok).toBe(false);
    if (!untrusted.ok) expectAreaSentence(untrusted.error.sentence, untrusted.error.message);
    const unreadable = await ipcCaller({})('tasks:get', { localId: 42 });
    expect(unreadable.ok).toBe(false);
    if (!unreadable.ok) {
      expect(unreadable.error.sentence?.key).toBe('error.library.badRequest');
      expectAreaSentence(unreadable.error.sentence, unreadable.error.message);
    }
  });
});

describe('source', () => {
  const FILES = [
    ...['electron/core/engine', 'electron/core/history', 'electron/core/library/archive'].flatMap(
      (dir) => readdirSync(dir).map((name) => join(dir, name)),
    ),
    'electron/ipc/archive-handlers.ts',
    'electron/ipc/ipc-main-bridge.ts',
  ].filter((file) => file.endsWith('.ts'));

  it('makes no user-facing error of the area from a string or template literal', () => {
    const made =
      /new (EngineInputError|HistoryError|ArchiveRefusedError|UserFacingError)\(\s*['"`]/;
    const offenders = FILES.filter((file) => made.test(readFileSync(file, 'utf8')));
    expect(FILES.length).toBeGreaterThan(30);
    expect(offenders).toEqual([]);
  });

  it('builds no task error or refusal from a literal message', () => {
    const literal = /\b(message|reason):\s*['"`][A-Z]/;
    const offenders = FILES.filter((file) => literal.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

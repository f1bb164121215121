/**
 * Main's dialogs on the Electron host (tests/e2e/harness/electron-dialog-stand-ins.ts): every real
 * caller's own code runs against the stand-ins put in place of Electron's `dialog`, as the OS-call
 * recorder puts them, and must get the answer and leave the record the chromium host's stand-ins
 * give for the same environment (os-stand-ins.ts). A caller whose options change so that the
 * stand-ins misread them fails here, not on a CI runner waiting on a native dialog.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BaseWindow, BrowserWindow } from 'electron';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOsStandIns, type OsCall, type OsStandIns } from '../../e2e/harness/os-stand-ins';
import {
  answerDialog,
  dialogStandIns,
  type DialogEnv,
} from '../../e2e/harness/electron-dialog-stand-ins';
import { testImageEngine } from '../../support/image-engine';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** Electron's `dialog` as the app sees it: its methods are replaced by the stand-ins below. */
const native = vi.hoisted(() => ({
  dialog: {
    showOpenDialog: async (): Promise<never> => {
      throw new Error('a native open dialog was drawn');
    },
    showSaveDialog: async (): Promise<never> => {
      throw new Error('a native save dialog was drawn');
    },
  },
}));
vi.mock('electron', () => ({
  app: { getPath: () => '/home/ada/Downloads', getVersion: () => '1.2.3' },
  dialog: native.dialog,
}));

const { chooseGalleryFolder } = await import('../../../electron/host/app-dialogs');
const { createLibraryDialogs } = await import('../../../electron/adapters/library-dialogs');
const { createInputDialogs } = await import('../../../electron/adapters/input-dialogs');
const { createShellActions } = await import('../../../electron/adapters/shell-actions');
const { galleryGuard } = await import('../../../electron/app/os/path-guard');
const { mainText } = await import('../../../electron/app/i18n/main-text');
const { dialog } = await import('electron');

const ALL_SET: DialogEnv = {
  PICTOR_E2E_CHOOSE_FOLDER: '/picked/folder',
  PICTOR_E2E_IMPORT_SOURCE: '/picked/library.zip',
  PICTOR_E2E_CHOOSE_IMAGE: '/picked/photo.png',
  PICTOR_E2E_EXPORT_FILE: '/picked/export.zip',
};
/** Unset (cancel), empty (cancel, as the chromium host reads it), and every answer set. */
const ENVS: [string, DialogEnv][] = [
  ['no variable set', {}],
  [
    'every variable empty',
    Object.fromEntries(Object.keys(ALL_SET).map((name) => [name, ''])) as DialogEnv,
  ],
  ['every variable set', ALL_SET],
];

let env: DialogEnv = {};
let recorded: OsCall[] = [];
/** The window the dialogs open over, or none: both of Electron's call forms. */
let parent: BaseWindow | null = null;

beforeEach(() => {
  env = {};
  recorded = [];
  parent = null;
  Object.assign(
    dialog,
    dialogStandIns(
      () => env,
      (call) => void recorded.push(call),
    ),
  );
});

const library = () =>
  createLibraryDialogs({
    dialog,
    window: () => parent,
    saveDir: () => '/home/ada/Downloads',
    now: () => new Date('2025-01-31T12:00:00Z'),
  });
const inputs = () => createInputDialogs({ dialog, window: () => parent });

/** The chromium host's stand-ins, reading the same environment. */
const chromium = () =>
  createOsStandIns({ userDataDir: '/unused', galleryDir: () => '/unused', env: () => env });

type Ask = () => Promise<string | null>;
/** Each dialog a journey answers: its caller on Electron, and on the chromium host. */
const ANSWERED: [string, Ask, (os: OsStandIns) => Promise<string | null>][] = [
  [
    'the gallery folder chooser',
    () => chooseGalleryFolder(parent as BrowserWindow | null, '/home/ada/Pictures/Pictor'),
    (os) => os.chooseFolder(),
  ],
  [
    'the library export',
    () => library().chooseExportFile(),
    (os) => os.libraryDialogs.chooseExportFile(),
  ],
  [
    'an import from an archive',
    () => library().chooseImportSource('archive'),
    (os) => os.libraryDialogs.chooseImportSource('archive'),
  ],
  [
    'an import from a folder',
    () => library().chooseImportSource('folder'),
    (os) => os.libraryDialogs.chooseImportSource('folder'),
  ],
  ['an input image', () => inputs().chooseInputImage(), (os) => os.inputDialogs.chooseInputImage()],
];

const answeredCases = ANSWERED.flatMap(([name, onElectron, onChromium]) =>
  ENVS.flatMap(([envName, values]) =>
    ['over the window', 'with no window'].map(
      (form) => [name, envName, form, values, onElectron, onChromium] as const,
    ),
  ),
);

describe('each dialog a journey answers, through its real caller', () => {
  it.each(answeredCases)(
    '%s, %s, %s: the chromium host’s answer and record',
    async (_name, _env, form, values, onElectron, onChromium) => {
      env = values;
      parent = form === 'over the window' ? ({ id: 1 } as unknown as BaseWindow) : null;
      const answer = await onElectron();
      const os = chromium();
      expect(answer).toBe(await onChromium(os));
      expect(recorded).toEqual(os.calls);
      expect(recorded).toHaveLength(1);
    },
  );

  it('answers each from its own variable, so no two are taken for one another', async () => {
    env = ALL_SET;
    const answers = [];
    for (const [, onElectron] of ANSWERED) answers.push(await onElectron());
    expect(answers).toEqual([
      '/picked/folder',
      '/picked/export.zip',
      '/picked/library.zip',
      '/picked/library.zip',
      '/picked/photo.png',
    ]);
    expect(recorded).toEqual([
      { action: 'chooseFolder', arg: '/picked/folder' },
      { action: 'chooseExportFile', arg: '/picked/export.zip' },
      { action: 'chooseImportSource', arg: 'archive:/picked/library.zip' },
      { action: 'chooseImportSource', arg: 'folder:/picked/library.zip' },
      { action: 'chooseInputImage', arg: '/picked/photo.png' },
    ]);
  });
});

describe('the dialogs no journey answers', () => {
  let gallery = '';
  beforeAll(async () => {
    gallery = await tempFolder('dialog-stand-ins');
    await mkdir(join(gallery, 'task'));
    await writeFile(join(gallery, 'task', 'image-1.png'), 'bytes');
  });
  afterAll(async () => {
    await removeFolder(gallery);
  });

  const saveImageAs = () =>
    createShellActions({
      images: testImageEngine,
      galleryRoot: () => gallery,
      isInsideGallery: galleryGuard(() => gallery),
      isAllowedExternal: () => true,
      logsDir: () => join(gallery, 'logs'),
      saveDir: () => '/home/ada/Downloads',
      parentWindow: () => parent as BrowserWindow | null,
    }).chooseSaveAsFile(join(gallery, 'task', 'image-1.png'), { prompt: 'A fox', index: 0 });

  const formats = ['pictor', 'fooocus', 'a1111', 'invokeai'] as const;
  const others: [string, () => Promise<unknown>, string][] = [
    ['the cost ledger', () => library().chooseLedgerFile?.() ?? fail(), 'save:dialog.exportCosts'],
    ...formats.flatMap((format): [string, () => Promise<unknown>, string][] => [
      [
        `a ${format} template export`,
        () => library().chooseTemplateExportFile?.(format) ?? fail(),
        'save:dialog.exportTemplates',
      ],
      [
        `a ${format} template import`,
        () => library().chooseTemplateImportFile?.(format) ?? fail(),
        'open:dialog.importTemplates',
      ],
    ]),
    [
      'an image’s “Save as…”',
      async () => {
        const chosen = await saveImageAs();
        return chosen.ok ? chosen.value : chosen;
      },
      'save:dialog.saveImageAs',
    ],
  ];

  it.each(others)(
    '%s is cancelled and recorded as such, whatever the variables say',
    async (_name, ask, record) => {
      env = ALL_SET;
      parent = { id: 1 } as unknown as BaseWindow;
      expect(await ask()).toBeNull();
      const [kind, key] = record.split(':') as ['open' | 'save', Parameters<typeof mainText>[0]];
      expect(recorded).toEqual([{ action: 'cancelledDialog', arg: `${kind}:${mainText(key)}` }]);
    },
  );
});

describe('answerDialog', () => {
  it('cancels a dialog it cannot tell apart, with Electron’s default options too', () => {
    expect(answerDialog('open', {}, ALL_SET)).toEqual({
      call: { action: 'cancelledDialog', arg: 'open:' },
      path: null,
    });
    expect(answerDialog('save', { title: 'Save' }, ALL_SET)).toEqual({
      call: { action: 'cancelledDialog', arg: 'save:Save' },
      path: null,
    });
  });

  it('reads the variable at each call, as the chromium host does', async () => {
    const values: Record<string, string | undefined> = {};
    const calls: OsCall[] = [];
    const stand = dialogStandIns(
      () => values,
      (call) => void calls.push(call),
    );
    const folder = { properties: ['openDirectory', 'createDirectory'] } as const;
    expect(await stand.showOpenDialog({ ...folder, properties: [...folder.properties] })).toEqual({
      canceled: true,
      filePaths: [],
    });
    values.PICTOR_E2E_CHOOSE_FOLDER = '/later';
    expect(
      await stand.showOpenDialog({} as BaseWindow, { properties: [...folder.properties] }),
    ).toEqual({ canceled: false, filePaths: ['/later'] });
    const zip = { filters: [{ name: 'Zip', extensions: ['zip'] }] };
    expect(await stand.showSaveDialog(zip)).toEqual({ canceled: true, filePath: '' });
    values.PICTOR_E2E_EXPORT_FILE = '/out.zip';
    expect(await stand.showSaveDialog({} as BaseWindow, zip)).toEqual({
      canceled: false,
      filePath: '/out.zip',
    });
    expect(calls.map((call) => call.arg)).toEqual(['', '/later', '', '/out.zip']);
  });
});

describe('the callers covered here', () => {
  it('are every file of the app that opens an open or save dialog, none of them a Sync one', async () => {
    const callers: string[] = [];
    for (const file of repositoryFiles(['electron'], /\.ts$/)) {
      const text = await readFile(join(REPO_ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/show(?:Open|Save)DialogSync/);
      if (/\.show(?:Open|Save)Dialog\(/.test(text)) callers.push(file);
    }
    expect(callers).toEqual([
      'electron/adapters/input-dialogs.ts',
      'electron/adapters/library-dialogs.ts',
      'electron/adapters/shell-actions.ts',
      'electron/host/app-dialogs.ts',
    ]);
  });
});

function fail(): never {
  throw new Error('the library dialogs lack this dialog');
}

/**
 * The Electron host of the journeys: the development binary runs with the mock keychain and the
 * OS-call recorder preloaded before the app's folder, and the recorder (a main-process preload)
 * records shell, clipboard and dialog calls under the chromium host's names, passing on only the
 * ones that change the disk or the clipboard: main's dialogs are answered, never drawn.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BaseWindow, OpenDialogOptions } from 'electron';
import { electronArgs, langSwitch } from '../../e2e/harness/electron-host';
import { RECORDED_ON_EVERY_HOST } from '../../e2e/harness/app-types';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const passedOn: string[] = [];
vi.mock('electron', () => ({
  shell: {
    showItemInFolder: () => void passedOn.push('showItemInFolder'),
    openExternal: async () => void passedOn.push('openExternal'),
    trashItem: async (path: string) => void passedOn.push(`trashItem ${path}`),
  },
  clipboard: { writeText: async (text: string) => void passedOn.push(`writeText ${text}`) },
  dialog: {
    showOpenDialog: async () => void passedOn.push('showOpenDialog'),
    showSaveDialog: async () => void passedOn.push('showSaveDialog'),
  },
}));

let dir = '';
beforeAll(async () => {
  dir = await tempFolder('os-recorder');
});
afterAll(async () => {
  await removeFolder(dir);
});

describe('the development binary’s command line', () => {
  it('uses the mock keychain and preloads the recorder before the app’s folder', () => {
    expect(electronArgs('/build', '/tmp/rec.cjs', 'darwin', 501)).toEqual([
      '--use-mock-keychain',
      '-r',
      '/tmp/rec.cjs',
      '/build',
    ]);
    expect(electronArgs('/build', '/tmp/rec.cjs', 'linux', 0)).toEqual([
      '--use-mock-keychain',
      '--no-sandbox',
      '-r',
      '/tmp/rec.cjs',
      '/build',
    ]);
  });
});

describe('the OS-call recorder', () => {
  it('records every shell, clipboard and dialog call under the names both hosts use', async () => {
    const file = join(dir, 'calls.jsonl');
    vi.stubEnv('PICTOR_E2E_OS_CALLS', file);
    await import('../../e2e/harness/electron-os-recorder');
    const { shell, clipboard, dialog } = await import('electron');
    shell.showItemInFolder('/g/a.png');
    await shell.openExternal('https://example.com/');
    await shell.trashItem('/g/b.png');
    await clipboard.writeText('prompt');
    // Main's dialogs in both call forms, answered from the variables as the chromium host does.
    vi.stubEnv('PICTOR_E2E_CHOOSE_FOLDER', '/moved');
    const folder = { properties: ['openDirectory', 'createDirectory'] } as OpenDialogOptions;
    const zip = { filters: [{ name: 'Zip', extensions: ['zip'] }] };
    expect(await dialog.showOpenDialog({} as BaseWindow, folder)).toEqual({
      canceled: false,
      filePaths: ['/moved'],
    });
    expect(await dialog.showSaveDialog(zip)).toEqual({ canceled: true, filePath: '' });
    const calls = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; arg: string });
    expect(calls).toEqual([
      { action: 'recorder', arg: 'ready' },
      { action: 'reveal', arg: '/g/a.png' },
      { action: 'openExternal', arg: 'https://example.com/' },
      { action: 'trash', arg: '/g/b.png' },
      { action: 'copyText', arg: 'prompt' },
      { action: 'chooseFolder', arg: '/moved' },
      { action: 'chooseExportFile', arg: '' },
    ]);
    // Every action it records is one the journeys may assert on either host.
    const named: readonly string[] = RECORDED_ON_EVERY_HOST;
    for (const { action } of calls.slice(1)) expect(named, action).toContain(action);
    // No file manager, browser or native dialog opens; the trash and the clipboard change as the
    // user's would.
    expect(passedOn).toEqual(['trashItem /g/b.png', 'writeText prompt']);
    vi.unstubAllEnvs();
  });
});

describe('the system language’s switch', () => {
  it('is a bare language on macOS, as Electron wants there, and the whole tag elsewhere', () => {
    expect(langSwitch('de-DE', 'darwin')).toBe('--lang=de');
    expect(langSwitch('ar-EG', 'darwin')).toBe('--lang=ar');
    expect(langSwitch('de', 'darwin')).toBe('--lang=de');
    expect(langSwitch('de-DE', 'linux')).toBe('--lang=de-DE');
    expect(langSwitch('de-DE', 'win32')).toBe('--lang=de-DE');
  });

  it('keeps a pseudo-locale whole on macOS: its region is the point', () => {
    expect(langSwitch('en-XA', 'darwin')).toBe('--lang=en-XA');
  });
});

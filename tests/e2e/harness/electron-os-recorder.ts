/**
 * A test-only preload of the development Electron's main process (bundled to CommonJS and loaded
 * with `-r` by the Electron host, electron-host.ts: Electron's default app preloads such modules
 * before it loads the app; a packaged app has no such option). It records the OS calls the app
 * makes through Electron's `shell`, `clipboard` and `dialog` as JSON lines in
 * PICTOR_E2E_OS_CALLS, so the journeys keep their assertions on real Electron
 * (LaunchedApp.osCalls), with the actions named as the chromium host's stand-ins name them
 * (os-stand-ins.ts):
 *
 * - `reveal` (`shell.showItemInFolder`) and `openExternal` (`shell.openExternal`) are recorded
 *   and not passed on: a CI runner has no file manager or browser to open, and a journey must not
 *   open the developer's;
 * - `trash` (`shell.trashItem`) and `copyText` (`clipboard.writeText`) are recorded and passed on,
 *   so the disk and the clipboard change as the user's would;
 * - main's open and save dialogs (`dialog.showOpenDialog`, `dialog.showSaveDialog`) are answered
 *   as the chromium host answers them, from PICTOR_E2E_CHOOSE_FOLDER, PICTOR_E2E_IMPORT_SOURCE,
 *   PICTOR_E2E_CHOOSE_IMAGE and PICTOR_E2E_EXPORT_FILE, cancelled by default, and never drawn: a
 *   native dialog would wait for a click no journey can make (electron-dialog-stand-ins.ts).
 *   Message boxes are left alone: no journey answers one (the key-origin question is main's
 *   message box; its flow is tested over the real wiring, key-base-url.test.ts).
 *
 * Its first line says it is in place (`recorder`); the host refuses a run without it.
 */
import { appendFileSync } from 'node:fs';
import { clipboard, dialog, shell } from 'electron';
import { dialogStandIns } from './electron-dialog-stand-ins';

const file = process.env['PICTOR_E2E_OS_CALLS'];

function record(action: string, arg: string): void {
  if (file) appendFileSync(file, `${JSON.stringify({ action, arg })}\n`);
}

if (file) {
  const trashItem = shell.trashItem.bind(shell);
  const writeText = clipboard.writeText.bind(clipboard);
  shell.showItemInFolder = (path: string) => record('reveal', path);
  shell.openExternal = async (url: string) => record('openExternal', url);
  shell.trashItem = async (path: string) => {
    record('trash', path);
    await trashItem(path);
  };
  clipboard.writeText = async (text: string) => {
    record('copyText', text);
    await writeText(text);
  };
  const dialogs = dialogStandIns(
    () => process.env,
    (call) => record(call.action, call.arg),
  );
  dialog.showOpenDialog = dialogs.showOpenDialog;
  dialog.showSaveDialog = dialogs.showSaveDialog;
  record('recorder', 'ready');
}

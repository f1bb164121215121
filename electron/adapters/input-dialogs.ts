/**
 * Main's open dialog for an input image, over the window when there is one. Drawn by main, so the
 * page never names a path (see ipc/input-handlers.ts); what the file holds is checked after.
 */
import type { BaseWindow, Dialog, OpenDialogOptions } from 'electron';
import type { InputDialogs } from '../ports/input-dialogs';
import { mainText } from '../app/i18n/main-text';

export interface InputDialogOptions {
  readonly dialog: Pick<Dialog, 'showOpenDialog'>;
  readonly window: () => BaseWindow | null;
}

export function createInputDialogs(options: InputDialogOptions): InputDialogs {
  return {
    async chooseInputImage() {
      const open: OpenDialogOptions = {
        title: mainText('dialog.openImage'),
        properties: ['openFile'],
        filters: [
          { name: mainText('dialog.imageFiles'), extensions: ['png', 'jpg', 'jpeg', 'webp'] },
        ],
      };
      const parent = options.window();
      const result = parent
        ? await options.dialog.showOpenDialog(parent, open)
        : await options.dialog.showOpenDialog(open);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  };
}

/**
 * Main's open and save dialogs on the Electron host, answered as the chromium host's stand-ins
 * answer them (os-stand-ins.ts): from the same environment variables, cancelled when the variable
 * is unset or empty, each call recorded under the same action with the same argument. The
 * OS-call recorder (electron-os-recorder.ts) puts these in place of Electron's `dialog` methods, so
 * a journey never opens a native dialog nobody could answer.
 *
 * A dialog is told apart by the structure of its options, never by its title (which is in the
 * app's language):
 *
 * - the folder chooser (host/app-dialogs.ts `chooseGalleryFolder`, for the gallery and the
 *   exports): open, `openDirectory` with `createDirectory` → PICTOR_E2E_CHOOSE_FOLDER,
 *   `chooseFolder`;
 * - an import from a folder (adapters/library-dialogs.ts `chooseImportSource('folder')`): open,
 *   `openDirectory` without `createDirectory` → PICTOR_E2E_IMPORT_SOURCE,
 *   `chooseImportSource` `folder:<path>`;
 * - an import from an archive (`chooseImportSource('archive')`): open, a `zip` filter → the same
 *   variable, `chooseImportSource` `archive:<path>`;
 * - an input image (adapters/input-dialogs.ts): open, a `png` filter → PICTOR_E2E_CHOOSE_IMAGE,
 *   `chooseInputImage`;
 * - the library's export (`chooseExportFile`): save, a `zip` filter → PICTOR_E2E_EXPORT_FILE,
 *   `chooseExportFile`.
 *
 * Any other dialog (the cost ledger's CSV, template files, an image's "Save as…": the chromium
 * host answers none of them with a dialog) is cancelled and recorded as `cancelledDialog`, with
 * its kind and title, on Electron only. tests/unit/e2e/electron-dialog-stand-ins.test.ts runs
 * every caller's own code against these.
 */
import type {
  BaseWindow,
  Dialog,
  OpenDialogOptions,
  OpenDialogReturnValue,
  SaveDialogOptions,
  SaveDialogReturnValue,
} from 'electron';
import type { OsCall } from './os-stand-ins';

/** The environment a stand-in reads its answers from, at the time of the call. */
export type DialogEnv = Readonly<Record<string, string | undefined>>;

/** One dialog's answer: the call to record, and the path chosen or null (cancelled). */
export interface DialogAnswer {
  readonly call: OsCall;
  readonly path: string | null;
}

/** As the chromium host answers: the variable's path, cancel when unset or empty. */
function answered(action: string, chosen: string | undefined, prefix = ''): DialogAnswer {
  return { call: { action, arg: `${prefix}${chosen ?? ''}` }, path: chosen ? chosen : null };
}

function openAnswer(options: OpenDialogOptions, env: DialogEnv): DialogAnswer | null {
  const properties: readonly string[] = options.properties ?? [];
  const extensions = (options.filters ?? []).flatMap((filter) => filter.extensions);
  if (properties.includes('openDirectory')) {
    return properties.includes('createDirectory')
      ? answered('chooseFolder', env.PICTOR_E2E_CHOOSE_FOLDER)
      : answered('chooseImportSource', env.PICTOR_E2E_IMPORT_SOURCE, 'folder:');
  }
  if (extensions.includes('zip'))
    return answered('chooseImportSource', env.PICTOR_E2E_IMPORT_SOURCE, 'archive:');
  if (extensions.includes('png')) return answered('chooseInputImage', env.PICTOR_E2E_CHOOSE_IMAGE);
  return null;
}

function saveAnswer(options: SaveDialogOptions, env: DialogEnv): DialogAnswer | null {
  const extensions = (options.filters ?? []).flatMap((filter) => filter.extensions);
  return extensions.includes('zip')
    ? answered('chooseExportFile', env.PICTOR_E2E_EXPORT_FILE)
    : null;
}

/** What the test answers to a dialog of `kind` with `options`; never a native dialog. */
export function answerDialog(
  kind: 'open' | 'save',
  options: OpenDialogOptions | SaveDialogOptions,
  env: DialogEnv,
): DialogAnswer {
  const known =
    kind === 'open'
      ? openAnswer(options as OpenDialogOptions, env)
      : saveAnswer(options as SaveDialogOptions, env);
  return (
    known ?? {
      call: { action: 'cancelledDialog', arg: `${kind}:${options.title ?? ''}` },
      path: null,
    }
  );
}

/** The options of a call in either form, `(window, options)` or `(options)`. */
function optionsOf<T>(args: readonly [BaseWindow, T] | readonly [T]): T {
  return args.length === 2 ? args[1] : args[0];
}

/**
 * Electron's `showOpenDialog` and `showSaveDialog`, both call forms, answered by
 * {@link answerDialog} from `env()` read at each call, each call given to `record`.
 */
export function dialogStandIns(
  env: () => DialogEnv,
  record: (call: OsCall) => void,
): Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'> {
  const ask = (kind: 'open' | 'save', options: OpenDialogOptions | SaveDialogOptions) => {
    const answer = answerDialog(kind, options, env());
    record(answer.call);
    return answer.path;
  };
  return {
    async showOpenDialog(
      ...args: [BaseWindow, OpenDialogOptions] | [OpenDialogOptions]
    ): Promise<OpenDialogReturnValue> {
      const path = ask('open', optionsOf(args));
      return path === null
        ? { canceled: true, filePaths: [] }
        : { canceled: false, filePaths: [path] };
    },
    async showSaveDialog(
      ...args: [BaseWindow, SaveDialogOptions] | [SaveDialogOptions]
    ): Promise<SaveDialogReturnValue> {
      const path = ask('save', optionsOf(args));
      return path === null ? { canceled: true, filePath: '' } : { canceled: false, filePath: path };
    },
  };
}

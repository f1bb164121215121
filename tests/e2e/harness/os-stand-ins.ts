/**
 * The OS actions of the chromium host: each call is recorded (what the user asked the OS to do),
 * and the ones that change the disk do so for real, so a test can check the disk afterwards:
 * `trash` moves the file into `<userDataDir>/.trash`; Save as's dialog (`chooseSaveAsFile`) answers
 * PICTOR_E2E_SAVE_IMAGE when set, else the suggested name in `<userDataDir>/downloads` (made), and
 * the app's own copy (the core's) writes it. Files outside the gallery are refused, as the app's
 * ShellActions do.
 */
import { mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Result } from '../../../shared/ipc/contract';
import { toIpcError } from '../../../electron/ipc/ipc-errors';
import { galleryGuard } from '../../../electron/app/os/path-guard';
import { suggestedFileName } from '../../../electron/app/os/save-name';
import { checkExternalUrl } from '../../../electron/app/protocol/external-url';
import type { InputDialogs } from '../../../electron/ports/input-dialogs';
import type { LibraryDialogs } from '../../../electron/ports/library-dialogs';
import type { ShellActions } from '../../../electron/ports/shell-actions';
import type { SystemTrash } from '../../../electron/ports/system-trash';
import type { UserPrompts } from '../../../electron/ports/user-prompts';

/** One recorded OS call: the action and its main argument (a path or a URL). */
export interface OsCall {
  readonly action: string;
  readonly arg: string;
}

export interface OsStandInOptions {
  readonly userDataDir: string;
  /** The gallery folder now (the user may move it). */
  readonly galleryDir: () => string;
  /** Read at call time, so a test can set PICTOR_E2E_CHOOSE_FOLDER just before clicking. */
  readonly env: () => Record<string, string | undefined>;
}

/** What the app's wiring (wireApp) needs from the OS, plus the record of calls. */
export interface OsStandIns {
  readonly shell: ShellActions;
  /** The system trash (the core's port): files move into `<userDataDir>/.trash`. */
  readonly systemTrash: SystemTrash;
  readonly chooseFolder: () => Promise<string | null>;
  /** Main's open dialog for an input image: answered from PICTOR_E2E_CHOOSE_IMAGE (default: cancel). */
  readonly inputDialogs: InputDialogs;
  /**
   * Main's save and open dialogs of the library archive and of a ComfyUI workflow: answered from
   * PICTOR_E2E_EXPORT_FILE, PICTOR_E2E_IMPORT_SOURCE and PICTOR_E2E_OPEN_WORKFLOW (default: cancel).
   */
  readonly libraryDialogs: LibraryDialogs;
  /** Main's own dialogs: PICTOR_E2E_KEY_ORIGIN (default cancel), PICTOR_E2E_LOCAL_SERVERS=allow. */
  readonly prompts: UserPrompts;
  readonly copyText: (text: string) => void;
  readonly calls: OsCall[];
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const OUTSIDE: Result<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'Pictor only acts on files inside the gallery folder.' },
};

export function createOsStandIns(options: OsStandInOptions): OsStandIns {
  const calls: OsCall[] = [];
  const inside = galleryGuard(options.galleryDir);
  const record = (action: string, arg: string): void => void calls.push({ action, arg });
  const guarded = async <T>(action: string, file: string, run: () => Promise<T>) => {
    record(action, file);
    if (!(await inside(file))) return OUTSIDE;
    return ok(await run());
  };
  let trashed = 0;
  const shell: ShellActions = {
    reveal: (file) => guarded('reveal', file, async () => undefined),
    copyImage: (file) => guarded('copyImage', file, async () => undefined),
    // Never throws, as the port says: a failure is the Result the app's dialog answers.
    chooseSaveAsFile: (file, request) =>
      guarded('saveAs', file, async () => {
        const chosen = options.env().PICTOR_E2E_SAVE_IMAGE;
        if (chosen) return chosen;
        const folder = join(options.userDataDir, 'downloads');
        await mkdir(folder, { recursive: true });
        return join(folder, suggestedFileName(request.prompt, request.index, file));
      }).catch((error: unknown) => ({ ok: false as const, error: toIpcError(error) })),
    startDrag: (_sender, file) => guarded('startDrag', file, async () => undefined),
    // Main's own links only (an update's download page): no page can name one.
    openExternal: async (url) => {
      record('openExternal', url);
      const checked = checkExternalUrl(url);
      return checked.ok
        ? ok(undefined)
        : { ok: false, error: { code: 'forbidden', message: checked.reason } };
    },
    openGalleryFolder: async (folder) => {
      record('openGalleryFolder', folder);
      return ok(undefined);
    },
    openLogsFolder: async () => {
      record('openLogsFolder', join(options.userDataDir, 'logs'));
      return ok(undefined);
    },
  };
  // The system trash throws (as the app's does) where the shell's actions answer a Result.
  const systemTrash: SystemTrash = async (file) => {
    const done = await guarded('trash', file, async () => {
      const bin = join(options.userDataDir, '.trash');
      await mkdir(bin, { recursive: true });
      trashed += 1;
      await rename(file, join(bin, `${trashed}-${basename(file)}`));
    });
    if (!done.ok) throw new Error(done.error.message);
  };
  return {
    shell,
    systemTrash,
    calls,
    chooseFolder: async () => {
      const chosen = options.env().PICTOR_E2E_CHOOSE_FOLDER;
      record('chooseFolder', chosen ?? '');
      return chosen ? chosen : null;
    },
    inputDialogs: {
      chooseInputImage: async () => {
        const chosen = options.env().PICTOR_E2E_CHOOSE_IMAGE;
        record('chooseInputImage', chosen ?? '');
        return chosen ? chosen : null;
      },
    },
    libraryDialogs: {
      chooseExportFile: async () => {
        const chosen = options.env().PICTOR_E2E_EXPORT_FILE;
        record('chooseExportFile', chosen ?? '');
        return chosen ? chosen : null;
      },
      chooseImportSource: async (from) => {
        const chosen = options.env().PICTOR_E2E_IMPORT_SOURCE;
        record('chooseImportSource', `${from}:${chosen ?? ''}`);
        return chosen ? chosen : null;
      },
      chooseWorkflowFile: async () => {
        const chosen = options.env().PICTOR_E2E_OPEN_WORKFLOW;
        record('chooseWorkflowFile', chosen ?? '');
        return chosen ? chosen : null;
      },
      chooseModelOptionsFile: async () => {
        const chosen = options.env().PICTOR_E2E_OPEN_OPTIONS;
        record('chooseModelOptionsFile', chosen ?? '');
        return chosen ? chosen : null;
      },
    },
    prompts: {
      confirmKeyOrigin: async (question) => {
        record('confirmKeyOrigin', question.to);
        const answer = options.env().PICTOR_E2E_KEY_ORIGIN;
        return answer === 'carry' || answer === 'forget' ? answer : 'cancel';
      },
      confirmLocalServers: async (addresses) => {
        record('confirmLocalServers', addresses.join(' '));
        return options.env().PICTOR_E2E_LOCAL_SERVERS === 'allow';
      },
    },
    copyText: (text) => record('copyText', text),
  };
}

/**
 * Every IPC handler of the app, built from the runtime and the OS actions. Electron-free: main.ts
 * passes Electron's shell, dialog and clipboard; the end-to-end harness passes recording fakes.
 */
import type { AppInfo } from '../../shared/ipc/contract';
import type { AppRuntime } from '../core/app-runtime';
import { galleryHandlers, type GalleryShell } from './gallery-handlers';
import type { Emit, IpcHandlers } from './ipc-main-bridge';
import { settingsHandlers } from './settings-handlers';
import { taskHandlers } from './task-handlers';

export interface AppHandlerDeps {
  readonly runtime: AppRuntime;
  readonly shell: GalleryShell;
  readonly chooseFolder: () => Promise<string | null>;
  readonly copyText: (text: string) => void;
  readonly info: () => Pick<AppInfo, 'version' | 'platform' | 'online' | 'notices'>;
  readonly emit: Emit;
}

/** Handlers bound to the runtime's current core; call again after the core is replaced. */
export function createAppHandlers(deps: AppHandlerDeps): IpcHandlers {
  const { runtime, emit } = deps;
  const { engine, history, client } = runtime.core;
  return {
    ...taskHandlers({ engine, history, emit }),
    ...galleryHandlers({
      engine,
      history,
      gallery: () => runtime.core.gallery,
      shell: deps.shell,
      chooseFolder: deps.chooseFolder,
      moveGalleryTo: (folder) => runtime.moveGalleryTo(folder),
      emit,
    }),
    ...settingsHandlers({
      settings: {
        get: () => runtime.settings.get(),
        update: (patch) => runtime.updateSettings(patch),
      },
      vault: runtime.vault,
      setKey: (key, allowWeakStorage) => runtime.setKey(key, allowWeakStorage),
      credentials: runtime.credentials,
      client,
      info: () => ({ ...deps.info(), galleryDir: runtime.galleryDir() }),
    }),
    'app:copyText': ({ text }) => deps.copyText(text),
  };
}

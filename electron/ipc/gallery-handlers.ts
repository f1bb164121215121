/** IPC handlers for the gallery: listing from the history, and actions on files inside the gallery. */
import type { ImageRecord, ImageState } from '../../shared/domain/task-record';
import type { Result } from '../../shared/ipc/contract';
import type { TaskEngine } from '../core/engine/task-engine';
import { removeFile } from '../core/fs/contained-fs';
import type { Gallery } from '../core/gallery';
import type { HistoryStore } from '../core/history/history-store';
import { IpcFailure, unwrap } from './ipc-errors';
import type { Emit, IpcHandlers } from './ipc-main-bridge';
import { taskItem } from './task-handlers';

/** The OS actions the gallery needs (electron/adapters/shell-actions.ts in the app; fakes in tests). */
export interface GalleryShell {
  reveal(file: string): Promise<Result<void>>;
  trash(file: string): Promise<Result<void>>;
  copyImage(file: string): Promise<Result<void>>;
  saveAs(
    file: string,
    request: { prompt: string; index: number },
  ): Promise<Result<{ savedTo: string | null }>>;
  startDrag(sender: never, file: string, thumbnail?: string): Promise<Result<void>>;
  /** Opens an https link in the browser after checking it (ShellActions.openExternal). */
  openLink(url: string): Promise<Result<void>>;
  openGalleryFolder(): Promise<Result<void>>;
  openLogsFolder(): Promise<Result<void>>;
}

export interface GalleryHandlerDeps {
  readonly engine: TaskEngine;
  readonly history: Pick<HistoryStore, 'listImages' | 'imageModels'>;
  readonly gallery: () => Pick<Gallery, 'resolve' | 'root'>;
  readonly shell: GalleryShell;
  /** The main process's own folder dialog: the only source of a new gallery folder. */
  readonly chooseFolder: () => Promise<string | null>;
  /** Moves the library to a folder the dialog returned (AppRuntime.moveGalleryTo). */
  readonly moveGalleryTo: (folder: string) => Promise<unknown>;
  readonly emit: Emit;
}

type GalleryChannels =
  | 'gallery:list'
  | 'gallery:models'
  | 'gallery:setFavourite'
  | 'gallery:deleteImage'
  | 'gallery:reveal'
  | 'gallery:copyImage'
  | 'gallery:saveAs'
  | 'gallery:startDrag'
  | 'gallery:openFolder'
  | 'gallery:chooseFolder'
  | 'app:openExternal'
  | 'app:openLogs';

/** What the gallery shows unless asked otherwise: everything but images moved to the trash. */
const VISIBLE_STATES: readonly ImageState[] = ['pending', 'saved', 'expired', 'invalid'];

const NOT_ON_DISK = new IpcFailure({
  code: 'not_found',
  message: 'This image is not on disk (it was not saved, or it was deleted).',
});

export function galleryHandlers(deps: GalleryHandlerDeps): Pick<IpcHandlers, GalleryChannels> {
  const { engine, shell } = deps;
  const imageOf = (localId: string, index: number) => {
    const record = engine.get(localId);
    const image = record?.images[index];
    if (!record || !image)
      throw new IpcFailure({ code: 'not_found', message: 'That image is not in the gallery.' });
    return { record, image };
  };
  const fileOf = (image: ImageRecord, which: 'file' | 'thumbnail' = 'file'): string => {
    const relative = image[which];
    if (image.state !== 'saved' || !relative) throw NOT_ON_DISK;
    return deps.gallery().resolve(relative);
  };
  const editImage = (localId: string, index: number, change: (image: ImageRecord) => ImageRecord) =>
    engine.edit(localId, (record) => ({
      ...record,
      images: record.images.map((image) => (image.index === index ? change(image) : image)),
    }));

  return {
    'gallery:list': ({ states, cursor, ...query }) =>
      deps.history.listImages({
        ...query,
        states: states ?? VISIBLE_STATES,
        cursor: cursor ?? null,
      }),
    'gallery:models': () => deps.history.imageModels(),
    'gallery:setFavourite': ({ localId, index, favourite }) => {
      imageOf(localId, index);
      return taskItem(
        engine,
        editImage(localId, index, (image) => ({ ...image, favourite })),
      );
    },
    'gallery:deleteImage': async ({ localId, index }) => {
      const { image } = imageOf(localId, index);
      unwrap(await shell.trash(fileOf(image)));
      // The thumbnail is our cache, not the user's file: removed, not trashed, and never through
      // a link (a `.thumbs` folder swapped for a link to elsewhere is refused).
      // Its failure leaves a stray cache file, never a half-deleted image, so it does not fail.
      if (image.thumbnail) {
        const gallery = deps.gallery();
        await removeFile(gallery.root, gallery.resolve(image.thumbnail)).catch(() => false);
      }
      const record = editImage(localId, index, ({ file: _file, thumbnail: _thumb, ...rest }) => ({
        ...rest,
        state: 'deleted',
      }));
      deps.emit('gallery:changed', { reason: 'deleted' });
      return taskItem(engine, record);
    },
    'gallery:reveal': async ({ localId, index }) =>
      unwrap(await shell.reveal(fileOf(imageOf(localId, index).image))),
    'gallery:copyImage': async ({ localId, index }) =>
      unwrap(await shell.copyImage(fileOf(imageOf(localId, index).image))),
    'gallery:saveAs': async ({ localId, index }) => {
      const { record, image } = imageOf(localId, index);
      return unwrap(await shell.saveAs(fileOf(image), { prompt: record.request.prompt, index }));
    },
    'gallery:startDrag': async ({ localId, index }, { sender }) => {
      const { image } = imageOf(localId, index);
      const thumbnail = image.thumbnail ? deps.gallery().resolve(image.thumbnail) : undefined;
      unwrap(await shell.startDrag(sender as never, fileOf(image), thumbnail));
    },
    'gallery:openFolder': async () => unwrap(await shell.openGalleryFolder()),
    'gallery:chooseFolder': async () => {
      // The page asks; the user chooses in the main process's dialog; the page never names a path.
      const folder = await deps.chooseFolder();
      if (folder === null) return { path: null };
      await deps.moveGalleryTo(folder);
      return { path: folder };
    },
    'app:openExternal': async ({ url }) => unwrap(await shell.openLink(url)),
    'app:openLogs': async () => unwrap(await shell.openLogsFolder()),
  };
}

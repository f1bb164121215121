/**
 * The `gallery:` channels that hand an image to the OS: Copy image, Save as, a drag out. While the
 * app holds a key, the image's own bytes are judged (PictorCore.outgoingScrubber): one that
 * carries a held key in its metadata (a task kept under a key-carrying id before the sweep
 * rewrote its files, an image saved before downloads were searched or before the key it echoes
 * was entered) is handed as a copy without it (core/gallery/outgoing-file.ts), and Save as's
 * suggested name is made from the prompt scrubbed (a tracked task's prompt holds its id); every
 * other image is handed as it is.
 *
 * A drag's copy must outlive the call (the drop reads it later) and Electron tells main nothing of
 * the drop's end: `startDrag` returns once the drag has begun. The user drags one image at a
 * time, so a drag's copy is removed when the next drag begins (or at once when it could not
 * begin); what is left at quit or a crash, the next start's sweep of the temp folder removes.
 */
import {
  findImage,
  type Gallery,
  type ImageRef,
  type OutgoingFile,
  outgoingFile,
  savedFile,
} from '../core/gallery';
import type { TaskEngine } from '../core/engine';
import type { PictorCore } from '../core/pictor-core';
import type { ShellActions } from '../ports/shell-actions';
import { unwrap } from './ipc-errors';
import type { HandlersOf } from './ipc-main-bridge';

interface GalleryOutgoingDeps {
  readonly core: {
    readonly engine: TaskEngine;
    readonly gallery: Pick<Gallery, 'resolve' | 'root'>;
    readonly outgoingScrubber: PictorCore['outgoingScrubber'];
  };
  readonly shell: Pick<ShellActions, 'copyImage' | 'saveAs' | 'startDrag'>;
}

type OutgoingChannel = 'gallery:copyImage' | 'gallery:saveAs' | 'gallery:startDrag';

export function galleryOutgoingHandlers({
  core,
  shell,
}: GalleryOutgoingDeps): Pick<HandlersOf<'gallery'>, OutgoingChannel> {
  /** An image as it leaves the app: its file, its prompt, its thumbnail (see the file's comment). */
  const leaving = async (ref: ImageRef) => {
    const { record, image } = findImage(core.engine, ref);
    const scrub = await core.outgoingScrubber();
    const out = await outgoingFile(core.gallery.root, savedFile(core.gallery, image), scrub);
    const { prompt } = record.request;
    const thumbnail = image.thumbnail ? core.gallery.resolve(image.thumbnail) : undefined;
    return { out, prompt: scrub ? scrub(prompt) : prompt, thumbnail };
  };
  /** The copy the last drag handed out (see the file's comment). */
  let dragged: OutgoingFile | null = null;
  return {
    'gallery:copyImage': async (ref) => {
      const { out } = await leaving(ref);
      try {
        return unwrap(await shell.copyImage(out.file));
      } finally {
        await out.release();
      }
    },
    'gallery:saveAs': async (ref) => {
      const { out, prompt } = await leaving(ref);
      try {
        return unwrap(await shell.saveAs(out.file, { prompt, index: ref.index }));
      } finally {
        await out.release();
      }
    },
    'gallery:startDrag': async (ref, { sender }) => {
      const { out, thumbnail } = await leaving(ref);
      const before = dragged;
      dragged = out;
      await before?.release();
      const started = await shell.startDrag(sender, out.file, thumbnail);
      if (!started.ok && dragged === out) {
        dragged = null;
        await out.release();
      }
      unwrap(started);
    },
  };
}

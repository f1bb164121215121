/**
 * The `gallery:` channels that hand an image to the OS: Copy image, Save as, a drag out. While the
 * app holds a key, the image's own bytes are judged (PictorCore.outgoingScrubber): one that
 * carries a held key in its metadata (a task kept under a key-carrying id before the sweep
 * rewrote its files, an image saved before downloads were searched or before the key it echoes
 * was entered) is handed as a copy without it (core/gallery/outgoing-file.ts), and Save as's
 * suggested name is made from the prompt scrubbed by the same keys (a tracked task's prompt
 * holds its id: the keys read once, OutgoingImages.saveCopy); every other image is handed as it is.
 *
 * What each writes (that copy, Save as's file, a drag's copy kept for the drop) is the core's
 * (PictorCore.outgoingImages), through its closing gate: refused once the close has begun. Save
 * as's dialog is asked before, outside it: a quit does not wait on a dialog the user has open,
 * and the copy asked once it is answered is refused if the close began meanwhile.
 */
import { findImage, type Gallery, type ImageRef, savedFile } from '../core/gallery';
import type { TaskEngine } from '../core/engine';
import type { PictorCore } from '../core/pictor-core';
import type { ShellActions } from '../ports/shell-actions';
import { unwrap } from './ipc-errors';
import type { HandlersOf } from './ipc-main-bridge';

interface GalleryOutgoingDeps {
  readonly core: {
    readonly engine: TaskEngine;
    readonly gallery: Pick<Gallery, 'resolve' | 'root'>;
    readonly outgoingImages: PictorCore['outgoingImages'];
  };
  readonly shell: Pick<ShellActions, 'copyImage' | 'chooseSaveAsFile' | 'startDrag'>;
}

type OutgoingChannel = 'gallery:copyImage' | 'gallery:saveAs' | 'gallery:startDrag';

export function galleryOutgoingHandlers({
  core,
  shell,
}: GalleryOutgoingDeps): Pick<HandlersOf<'gallery'>, OutgoingChannel> {
  /** An image: its task, its saved file, its thumbnail's. */
  const imageOf = (ref: ImageRef) => {
    const { record, image } = findImage(core.engine, ref);
    const thumbnail = image.thumbnail ? core.gallery.resolve(image.thumbnail) : undefined;
    return { record, file: savedFile(core.gallery, image), thumbnail };
  };
  const { outgoingImages } = core;
  return {
    'gallery:copyImage': async (ref) => {
      const { file } = imageOf(ref);
      return outgoingImages.lend(file, async (out) => unwrap(await shell.copyImage(out)));
    },
    'gallery:saveAs': async (ref) => {
      const { record, file } = imageOf(ref);
      const { prompt } = record.request;
      const savedTo = await outgoingImages.saveCopy(file, async (scrub) => {
        const request = { prompt: scrub ? scrub(prompt) : prompt, index: ref.index };
        return unwrap(await shell.chooseSaveAsFile(file, request));
      });
      return { savedTo };
    },
    'gallery:startDrag': async (ref, { sender }) => {
      const { file, thumbnail } = imageOf(ref);
      await outgoingImages.dragOut(file, async (out) =>
        unwrap(await shell.startDrag(sender, out, thumbnail)),
      );
    },
  };
}

/**
 * The engine's files over the core's gallery (where a task's folder and sidecar are) and its
 * image intake (how an image gets there): the {@link EngineGallery} port the engine is given.
 * Each sidecar write passes the core's closing gate (core/base/closing-gate.ts) as it starts:
 * one asked for once the core has closed is refused, never started.
 */
import type { ClosingGate } from '../base';
import type { ImageIntake } from '../download';
import type { Gallery } from '../gallery';
import type { EngineGallery } from './engine-types';

export function engineFiles(
  gallery: Pick<Gallery, 'folderFor' | 'writeSidecar'> & Partial<Pick<Gallery, 'writeTriage'>>,
  intake: Pick<ImageIntake, 'downloadImage' | 'keepInline' | 'dropInline'>,
  gate: Pick<ClosingGate, 'write'>,
): EngineGallery {
  return {
    folderFor: (record) => gallery.folderFor(record),
    writeSidecar: (record) => gate.write(() => gallery.writeSidecar(record)),
    writeTriage: (record) =>
      gate.write(() => (gallery.writeTriage ?? gallery.writeSidecar).call(gallery, record)),
    downloadImage: (record, index, baseUrl, attempt) =>
      intake.downloadImage(record, index, baseUrl, attempt),
    keepInline: (record, images) => intake.keepInline(record, images),
    dropInline: (record, sha256) => intake.dropInline(record, sha256),
  };
}

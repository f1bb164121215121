import type { TaskRecord } from '../../shared/domain/task-record';
import type { DownloadOutcome } from '../../electron/core/download/download-outcome';
import type { EngineGallery } from '../../electron/core/engine/engine-types';
import type { InlineImage } from '../../shared/service/inline-token';

type Script = (
  record: TaskRecord,
  index: number,
  attempt: number,
) => DownloadOutcome | Promise<DownloadOutcome>;

/** An EngineGallery that saves nothing: outcomes come from a script (default: saved). */
export class FakeGallery implements EngineGallery {
  readonly downloads: { localId: string; index: number; url: string | null; baseUrl: string }[] =
    [];
  readonly sidecars: TaskRecord[] = [];
  script: Script = (record, index) => ({
    state: 'saved',
    file: `${this.folderFor(record)}/image-${index + 1}.png`,
    thumbnail: `${this.folderFor(record)}/.thumbs/image-${index + 1}.webp`,
    width: 64,
    height: 64,
    bytes: 1234,
    mime: 'image/png',
  });

  folderFor(record: TaskRecord): string {
    return `2026/01/${record.localId}`;
  }

  async downloadImage(
    record: TaskRecord,
    index: number,
    baseUrl: string,
  ): Promise<DownloadOutcome> {
    this.downloads.push({
      localId: record.localId,
      index,
      url: record.images[index]?.url ?? null,
      baseUrl,
    });
    const attempt = this.downloads.filter(
      (d) => d.localId === record.localId && d.index === index,
    ).length;
    return this.script(record, index, attempt);
  }

  async writeSidecar(record: TaskRecord): Promise<void> {
    this.sidecars.push(structuredClone(record));
  }

  /** Inline images kept, by the hash their record names them with. */
  readonly inline = new Map<string, Uint8Array>();

  async keepInline(_record: TaskRecord, images: readonly InlineImage[]): Promise<void> {
    for (const image of images) this.inline.set(image.sha256, image.bytes);
  }

  async dropInline(_record: TaskRecord, sha256: string): Promise<void> {
    this.inline.delete(sha256);
  }
}

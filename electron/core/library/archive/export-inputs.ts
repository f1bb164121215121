/**
 * The input images an export carries (shared/domain/image-inputs.ts): every file the exported
 * tasks' `request.inputs` name, each once however many tasks name it, at its store path
 * (`inputs/<sha256>.<ext>`, inputs/input-store.ts), read through the store, which hashes it again
 * (a file changed on disk since it was kept is not exported as if it were the input). One the
 * library lacks is left out and named: its tasks are exported without it.
 */
import { inputImagesOf, type InputImage } from '../../../../shared/domain/image-inputs';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { sentence } from '../../../../shared/i18n/sentence';
import { InputStore } from '../../inputs';
import { refusal, type Refusal } from './archive-errors';

export class ExportedInputs {
  private readonly store: InputStore;
  private readonly seen = new Set<string>();

  constructor(
    root: string,
    private readonly skipped: Refusal[],
  ) {
    this.store = new InputStore({ root });
  }

  /** The input files of `record` not exported yet, their archive path and bytes, in order. */
  async *filesOf(record: TaskRecord): AsyncGenerator<{ path: string; bytes: Buffer }> {
    const { inputs } = record.request;
    if (!inputs) return;
    for (const image of inputImagesOf(inputs)) {
      if (this.seen.has(image.sha256)) continue;
      this.seen.add(image.sha256);
      const bytes = await this.read(image);
      if (bytes) yield { path: this.store.relativePath(image), bytes };
    }
  }

  private async read(image: InputImage): Promise<Buffer | null> {
    try {
      return await this.store.read(image);
    } catch {
      const path = this.store.relativePath(image);
      this.skipped.push(
        refusal(path, sentence('error.lineage.inputMissing', { sha256: image.sha256 })),
      );
      return null;
    }
  }
}

/**
 * The download attempts out, one per image: each refused before it starts where its link cannot
 * be asked (answer-images.ts), else the gallery's download, an error thrown a retry with its
 * reason. At a wake (back from sleep or offline), an attempt out for an interval or more went out
 * before it: its connection may have died meanwhile and would never be answered (the download's
 * time limit is two minutes), so it ends, and the manager asks again at once, not counting it.
 */
import type { DownloadOutcome } from '../download';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { CredentialsProvider } from '../../ports/credentials';
import { sentence } from '../../../shared/i18n/sentence';
import { codeOrMessage } from '../errors';
import type { EngineContext } from './engine-context';
import type { EngineGallery } from './engine-types';
import { imageKeyFor } from './image-key';
import { failure, refusedBeforeDownload } from './answer-images';

export class ImageAttempts {
  private readonly out = new Map<string, { woken: AbortController; startedAt: number }>();

  constructor(
    private readonly ctx: EngineContext,
    private readonly gallery: EngineGallery,
    private readonly credentials: CredentialsProvider,
  ) {}

  /** One attempt at the image; `woken`: a wake ended it (ask again, not a failure). */
  async run(record: TaskRecord, index: number): Promise<DownloadOutcome | 'woken'> {
    const key = `${record.localId}:${index}`;
    const woken = new AbortController();
    this.out.set(key, { woken, startedAt: this.ctx.clock.now() });
    try {
      const signal = AbortSignal.any([this.ctx.signal, woken.signal]);
      const outcome = await this.download(record, index, signal);
      return woken.signal.aborted && !this.ctx.signal.aborted ? 'woken' : outcome;
    } finally {
      this.out.delete(key);
    }
  }

  /** Ends each attempt out for an interval or more (see the header). */
  wake(): void {
    const now = this.ctx.clock.now();
    for (const { woken, startedAt } of this.out.values()) {
      if (now - startedAt >= this.ctx.options.pollIntervalMs) woken.abort();
    }
  }

  private async download(
    record: TaskRecord,
    index: number,
    signal: AbortSignal,
  ): Promise<DownloadOutcome> {
    const baseUrl = this.credentials.baseUrlFor(record.endpoint) ?? record.endpoint;
    try {
      const keyed = await imageKeyFor(record, this.credentials);
      return (
        refusedBeforeDownload(record, record.images[index]?.url ?? null, baseUrl) ??
        (await this.gallery.downloadImage(record, index, baseUrl, {
          signal,
          ...(keyed ? { keyed } : {}),
        }))
      );
    } catch (error) {
      const said = sentence('error.library.imageNotSaved', {
        reason: codeOrMessage(error),
        last: 'no',
      });
      return { state: 'retry', ...failure(said) };
    }
  }
}

/**
 * A dedicated worker of the image page: one job at a time, given by the page (page.ts), answered
 * to the page, which forwards the answer to the main process. The page ends a worker whose job was
 * cancelled, so nothing here needs to stop half-way.
 */
import type { ImageJob, PageAnswer } from '../../shared/image-renderer/protocol';
import {
  UndecodableError,
  png,
  thumbnailBitmap,
  workerHeldBytes,
  type ThumbnailBitmap,
} from './decode';

/**
 * What a worker posts to the page: the answer, or a thumbnail job's bitmap for the page to encode
 * (encode-thumbnail.ts); and what it has made Chromium hold so far (workerHeldBytes, decode.ts).
 */
export type WorkerReply =
  | { readonly answer: PageAnswer; readonly heldBytes: number }
  | { readonly thumbnail: ThumbnailBitmap; readonly heldBytes: number };

/** The parts of a dedicated worker's global scope used here (the DOM library types `self` as a window). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<ImageJob>) => void) | null;
  postMessage(message: WorkerReply, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : 'The job failed.';
}

async function answer(job: ImageJob): Promise<PageAnswer | ThumbnailBitmap> {
  try {
    if (job.type === 'thumbnail') return await thumbnailBitmap(job);
    if (job.type === 'png') return await png(job);
    return { type: 'failed', id: job.id, detail: 'Decode workers do not do this job.' };
  } catch (error) {
    const type = error instanceof UndecodableError ? 'undecodable' : 'failed';
    return { type, id: job.id, detail: detailOf(error) };
  }
}

scope.onmessage = (event) => {
  void answer(event.data).then((reply) => {
    const heldBytes = workerHeldBytes();
    if ('fitted' in reply) {
      scope.postMessage({ thumbnail: reply, heldBytes }, [reply.fitted]);
      return;
    }
    // Within the renderer the bytes move; the page clones them on to the main process.
    scope.postMessage({ answer: reply, heldBytes }, reply.type === 'png' ? [reply.png.buffer] : []);
  });
};

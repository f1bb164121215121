/**
 * The Content Credentials verifier of the app: each file is a `verify` job on the Chromium image
 * engine's sandboxed renderer (core/images/renderer-jobs.ts), whose page reads the manifest store
 * with @contentauth/c2pa-wasm on a worker of its own (electron/image-renderer/c2pa-worker.ts).
 * Hostile manifests are parsed there, in a process with no Node, no file system and no network,
 * never in the main process. The same bounds as the worker-thread verifier (c2pa-verifier.ts):
 *
 * - size: an image bigger than `maxBytes` is not sent, and the page reads no more than that;
 * - time: a job not answered within `timeoutMs` is cancelled (the page ends its worker) and
 *   answers `unreadable`; a renderer that died on a file answers `unreadable` for it;
 * - trust: the page's answer is checked like every answer of that page (renderer-answers.ts): a
 *   verdict that is not exactly the record's shape ends the renderer and answers `unreadable`.
 *
 * It rejects only when the renderer cannot run the library (it could not start, the module did
 * not load: VerifierUnavailableError, and the host falls back to the worker-thread verifier) or
 * when the request was aborted.
 */
import type {
  ContentCredentialVerifier,
  CredentialRequest,
  CredentialVerdict,
} from '../../ports/content-credential-verifier';
import { ImageEngineError } from '../../ports/image-engine';
import { silentLogger, type Logger } from '../../ports/logger';
import type { JobAnswer, RendererJobSpec } from '../images';
import { VerifierUnavailableError } from './c2pa-verifier';

/** What the verifier needs of the image engine: a job on its renderer. */
export interface RendererJobRunner {
  runJob<T>(spec: RendererJobSpec<T>): Promise<T>;
}

export interface RendererVerifierOptions {
  readonly renderer: RendererJobRunner;
  /** PEM certificates a signer must chain to for "trusted" (trust-anchors.ts). */
  readonly trustAnchors: string;
  /** Default 64 MiB (the gallery's own image limit). */
  readonly maxBytes?: number;
  /** Default 20 s per file. */
  readonly timeoutMs?: number;
  readonly logger?: Logger;
}

const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
const UNREADABLE: CredentialVerdict = { state: 'unreadable' };

/** The verdict a verify job's answer carries; an answer of another kind is not believed. */
function verdictOf(answer: JobAnswer): CredentialVerdict {
  if (answer.type === 'credentials') return answer.verdict;
  if (answer.type === 'failed') throw new VerifierUnavailableError(answer.detail);
  return UNREADABLE;
}

export class RendererCredentialVerifier implements ContentCredentialVerifier {
  private readonly maxBytes: number;
  private readonly timeoutMs: number;
  private readonly logger: Logger;

  constructor(private readonly options: RendererVerifierOptions) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.logger = options.logger ?? silentLogger;
  }

  /** See the port and the file's comment for what it answers. */
  async verify(request: CredentialRequest): Promise<CredentialVerdict> {
    request.signal?.throwIfAborted();
    if (request.bytes.length > this.maxBytes) return UNREADABLE;
    const mime = MIME[request.format];
    try {
      return await this.options.renderer.runJob({
        source: { kind: 'bytes', bytes: request.bytes, type: mime },
        ...(request.signal ? { signal: request.signal } : {}),
        timeoutMs: this.timeoutMs,
        request: (id, url) => ({
          type: 'verify',
          id,
          url,
          mime,
          maxBytes: this.maxBytes,
          trustAnchors: this.options.trustAnchors,
        }),
        settle: verdictOf,
      });
    } catch (error) {
      if (!(error instanceof ImageEngineError)) throw error;
      if (error.why === 'stopped') throw error;
      if (error.why === 'unavailable') throw new VerifierUnavailableError(error.message);
      // `timeout` or `crashed`: the file (or a page it turned) gets no verdict; the next one does.
      this.logger.warn('Content Credentials could not be read in time or safely.', {
        why: error.why,
      });
      return UNREADABLE;
    }
  }

  /** The renderer is the image engine's, ended with it. */
  async dispose(): Promise<void> {}
}

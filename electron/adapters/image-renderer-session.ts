/**
 * The image renderer's session: an in-memory partition of its own, on which the app scheme serves
 * the image page only (with its policy) and the image scheme serves job bytes only. Every other
 * request is cancelled, every permission and download refused. Nothing is shared with the app's
 * window: no cookies, no cache, no protocol handlers.
 */
import { session as sessions, type Session } from 'electron';
import { serveAppRequest } from '../app/protocol/app-request';
import { imageRendererCsp } from '../app/protocol/csp';
import { APP_SCHEME, IMAGE_JOB_HOST, IMAGE_PAGE_HOST, IMAGE_SCHEME } from '../app/protocol/schemes';
import { silentLogger, type Logger } from '../ports/logger';
import { guardSession } from './window-guards';

/** Not `persist:`: the session lives in memory and leaves nothing on disk. */
export const IMAGE_PARTITION = 'pictor-images';

/** The only addresses the image page may load: its own files, job bytes, its own blob: URLs. */
const ALLOWED_PREFIXES = [
  `${APP_SCHEME}://${IMAGE_PAGE_HOST}/`,
  `${IMAGE_SCHEME}://${IMAGE_JOB_HOST}/`,
  `blob:${APP_SCHEME}://${IMAGE_PAGE_HOST}/`,
];

function isImageSessionRequestAllowed(url: string): boolean {
  const lower = url.toLowerCase();
  return ALLOWED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

export interface ImageSessionOptions {
  /** The built page: dist-electron/image-renderer. */
  readonly pageRoot: string;
  /** Serves one job's bytes (core/images/image-job-sources.ts). */
  readonly serveSource: (request: Request) => Promise<Response>;
  readonly logger?: Logger;
  /** Electron's session module (a test passes a fake). */
  readonly sessions?: Pick<typeof sessions, 'fromPartition'>;
}

/** The partition's session, set up once. Call after the app's `ready`. */
export function prepareImageSession(options: ImageSessionOptions): Session {
  const logger = options.logger ?? silentLogger;
  const session = (options.sessions ?? sessions).fromPartition(IMAGE_PARTITION, { cache: false });
  guardSession(session);
  const csp = imageRendererCsp(`${IMAGE_SCHEME}:`);
  session.protocol.handle(APP_SCHEME, (request) =>
    serveAppRequest(request, options.pageRoot, csp, IMAGE_PAGE_HOST),
  );
  session.protocol.handle(IMAGE_SCHEME, (request) => options.serveSource(request));
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isImageSessionRequestAllowed(details.url);
    if (!allowed)
      logger.warn('image renderer: request refused', { url: details.url.slice(0, 200) });
    callback({ cancel: !allowed });
  });
  return session;
}

/**
 * Binds the gallery scheme to Electron. Every decision (which file, which headers, what is
 * refused) is in app/protocol/gallery-request; this only hands requests over.
 */
import { protocol } from 'electron';
import { serveGalleryRequest } from '../app/protocol/gallery-request';
import { GALLERY_SCHEME } from '../../shared/ipc/api';
import { silentLogger, type Logger } from '../ports/logger';

export interface GalleryProtocolOptions {
  /** The gallery folder now (absolute); read on every request since the user may change it. */
  readonly root: () => string;
  /**
   * The keys the app holds, once known (AppRuntime.keptIdPage): an image that carries one in its
   * metadata is served without it (app/protocol/held-key-file.ts).
   */
  readonly heldKeys: () => readonly string[] | Promise<readonly string[]>;
  readonly logger?: Logger;
}

/** Serves `pictor-gallery://gallery/…` from the gallery folder only. Call after `ready`. */
export function registerGalleryProtocol(options: GalleryProtocolOptions): void {
  const logger = options.logger ?? silentLogger;
  protocol.handle(GALLERY_SCHEME, async (request) => {
    const response = await serveGalleryRequest(request, options.root(), {
      heldKeys: options.heldKeys,
    });
    if (response.status >= 400) {
      logger.warn('Gallery protocol refused a request', {
        status: response.status,
        url: request.url.slice(0, 300),
      });
    }
    return response;
  });
}

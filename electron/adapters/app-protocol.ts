/**
 * Binds the app scheme to Electron: the privileged-scheme registration (before `ready`) and the
 * handler that serves the renderer bundle (after `ready`). The decisions are in
 * app/protocol/app-request.
 */
import { protocol } from 'electron';
import { serveAppRequest } from '../app/protocol/app-request';
import { RENDERER_CSP } from '../app/protocol/csp';
import { APP_SCHEME, PRIVILEGED_SCHEMES } from '../app/protocol/schemes';
import { silentLogger, type Logger } from '../ports/logger';

/**
 * Registers the custom schemes (app, gallery and the image renderer's bytes) as privileged. Electron accepts this once,
 * before the app's `ready` event: call it at the top level of main.ts.
 */
export function registerPrivilegedSchemes(): void {
  protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES);
}

export interface AppProtocolOptions {
  /** Absolute path of the built renderer (dist/renderer, inside app.asar when packaged). */
  readonly root: string;
  readonly logger?: Logger;
}

/** Serves `pictor-app://app/…` from `root` only, with the renderer's CSP. Call after `ready`. */
export function registerAppProtocol(options: AppProtocolOptions): void {
  const logger = options.logger ?? silentLogger;
  protocol.handle(APP_SCHEME, async (request) => {
    const response = await serveAppRequest(request, options.root, RENDERER_CSP);
    if (response.status >= 400) {
      logger.warn('App protocol refused a request', {
        status: response.status,
        url: request.url.slice(0, 300),
      });
    }
    return response;
  });
}

/**
 * The app's own updates (app/updates on electron-updater), following the user's choice in
 * Settings; the first check comes a little after start-up, then daily.
 */
import { app, net, session, type Session } from 'electron';
import { createElectronFetch } from '../adapters/electron-net-fetch';
import { createAppUpdater } from '../adapters/electron-updater';
import { systemClock } from '../adapters/system-clock';
import type { MacSignature } from '../app/updates/update-capability';
import { UpdateService } from '../app/updates/update-service';
import type { SettingsService } from '../core/settings';
import { DisposableStore } from '../ports/disposable';
import type { Logger } from '../ports/logger';

/** electron-updater's network session (electronHttpExecutor.ts names it so). */
function updaterSession(): Session {
  return session.fromPartition('electron-updater', { cache: false });
}

/** The update service, started; dispose to stop it and its subscription to the settings. */
export function startAppUpdates(
  settings: Pick<SettingsService, 'get' | 'onDidChange'>,
  logger: Logger,
  macSignature: MacSignature | undefined,
): { readonly updates: UpdateService; readonly owned: DisposableStore } {
  const owned = new DisposableStore();
  const updates = new UpdateService({
    updater: createAppUpdater(
      app,
      logger,
      {
        // electron-updater's own session (its downloads use the same): no cache, no cookies of the
        // service's, the system's proxy settings. Through the app's adapter, whose manual redirects
        // net.fetch cannot give (the channel file follows them only inside the feed's origin).
        fetch: createElectronFetch(
          {
            fetch: (url, init) => updaterSession().fetch(url, init),
            request: (options) =>
              net.request({
                ...(typeof options === 'string' ? { url: options } : options),
                session: updaterSession(),
              }),
          },
          session,
        ),
        clock: systemClock,
      },
      macSignature,
    ),
    clock: systemClock,
    logger,
    mode: () => settings.get().updateMode,
  });
  owned.add(updates);
  owned.add(settings.onDidChange(() => updates.modeChanged()));
  updates.start();
  return { updates, owned };
}

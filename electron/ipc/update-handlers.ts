/** IPC handlers of the `updates:` channels: the page asks; the update service decides. */
import type { UpdateState } from '../../shared/domain/update-state';
import { toDisposable, type Disposable } from '../ports/disposable';
import type { HandlersOf } from './ipc-main-bridge';

/** What the handlers use of the update service (app/updates/update-service.ts). */
export interface UpdatesControl {
  state(): UpdateState;
  onChange(listener: (state: UpdateState) => void): Disposable;
  checkNow(): Promise<UpdateState>;
  download(): Promise<UpdateState>;
  restart(): void;
}

/** Where nothing updates (the test harnesses, which run no packaged app): says so, does nothing. */
export const noUpdates: UpdatesControl = {
  state: () => ({ status: 'unavailable', reason: 'development', canInstall: false }),
  onChange: () => toDisposable(() => undefined),
  checkNow: () => Promise.resolve(noUpdates.state()),
  download: () => Promise.resolve(noUpdates.state()),
  restart: () => undefined,
};

export function updateHandlers(updates: UpdatesControl): HandlersOf<'updates'> {
  return {
    'updates:getState': () => updates.state(),
    'updates:check': () => updates.checkNow(),
    'updates:download': () => updates.download(),
    'updates:restart': () => updates.restart(),
  };
}

/**
 * The app's updates, started after the first window shows. What decides whether this copy can
 * install an update on macOS (`codesign --verify --deep --strict`, which reads every file of the
 * bundle: seconds on a cold disk) must not delay the window, and is not read at all without an
 * update feed (adapters/codesign.ts). The IPC handlers are wired before the window, so they get
 * this control: idle until the real update service is attached, then the service itself; a
 * "Check now" asked meanwhile waits for it.
 */
import type { UpdateState } from '../../shared/domain/update-state';
import type { UpdatesControl } from '../ipc/update-handlers';
import { toDisposable, type Disposable } from '../ports/disposable';

/** Until the service is attached: checks on its schedule, cannot install yet. */
const STARTING: UpdateState = { status: 'idle', canInstall: false };

export interface LateUpdates {
  readonly control: UpdatesControl;
  /** The update service, once started; its state goes to every listener at once. */
  attach(updates: UpdatesControl): void;
}

export function lateUpdates(): LateUpdates {
  let real: UpdatesControl | null = null;
  let attached: () => void = () => undefined;
  const ready = new Promise<UpdatesControl>((resolve) => {
    attached = () => {
      if (real) resolve(real);
    };
  });
  const listeners = new Set<(state: UpdateState) => void>();
  const subscriptions = new Map<(state: UpdateState) => void, Disposable>();
  const follow = (listener: (state: UpdateState) => void) => {
    if (real) subscriptions.set(listener, real.onDidChange(listener));
  };
  const control: UpdatesControl = {
    state: () => real?.state() ?? STARTING,
    onDidChange(listener) {
      listeners.add(listener);
      follow(listener);
      return toDisposable(() => {
        listeners.delete(listener);
        subscriptions.get(listener)?.dispose();
        subscriptions.delete(listener);
      });
    },
    checkNow: async () => (await ready).checkNow(),
    download: async () => (await ready).download(),
    restart: () => real?.restart(),
    downloadLink: () => real?.downloadLink() ?? null,
  };
  return {
    control,
    attach(updates) {
      if (real) return;
      real = updates;
      attached();
      for (const listener of listeners) {
        follow(listener);
        listener(updates.state());
      }
    },
  };
}

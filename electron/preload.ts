/**
 * The only bridge between the page and the main process: one object, `window.pictor`, built from
 * the IPC contract. No Node, no ipcRenderer, no Electron objects reach the page.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { GALLERY_BASE, type PictorApi } from '../shared/ipc/api';
import { EVENT_CHANNEL_NAMES, REQUEST_CHANNEL_NAMES } from '../shared/ipc/channels';

const requestChannels = new Set<string>(REQUEST_CHANNEL_NAMES);
const eventChannels = new Set<string>(EVENT_CHANNEL_NAMES);

export const api: PictorApi = {
  galleryBase: GALLERY_BASE,
  invoke(channel, ...args) {
    if (!requestChannels.has(channel)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'forbidden', message: 'Unknown request.' },
      });
    }
    return ipcRenderer.invoke(channel, args[0]);
  },
  on(channel, listener) {
    if (!eventChannels.has(channel)) throw new Error(`Unknown event: ${String(channel)}`);
    // Only the payload crosses: the IpcRendererEvent (with `sender`) stays in the preload.
    const forward = (_event: IpcRendererEvent, payload: unknown): void =>
      listener(payload as never);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
};

contextBridge.exposeInMainWorld('pictor', api);

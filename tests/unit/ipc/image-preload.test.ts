import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_PORT_CHANNEL, IMAGE_PORT_MESSAGE } from '../../../shared/image-renderer/protocol';

const ipcRenderer = new EventEmitter();
const exposeInMainWorld = vi.fn();

vi.mock('electron', () => ({ ipcRenderer, contextBridge: { exposeInMainWorld } }));

const postMessage = vi.fn();
const page = new EventEmitter();
const document = { readyState: 'loading' };
vi.stubGlobal('window', {
  postMessage,
  location: { origin: 'pictor-app://images' },
  addEventListener: (event: string, listener: () => void) => page.once(event, listener),
});
vi.stubGlobal('document', document);

afterEach(() => vi.unstubAllGlobals());

describe('image preload', () => {
  it('hands the first single port to the page, on the page origin, then ignores every other message', async () => {
    await import('../../../electron/image-preload');
    expect(exposeInMainWorld).not.toHaveBeenCalled();
    // Two ports at once, or none: not the hand-over it waits for.
    ipcRenderer.emit(IMAGE_PORT_CHANNEL, { ports: [{}, {}] });
    ipcRenderer.emit(IMAGE_PORT_CHANNEL, { ports: [] });
    expect(postMessage).not.toHaveBeenCalled();
    const port = { name: 'the port' };
    ipcRenderer.emit(IMAGE_PORT_CHANNEL, { ports: [port] });
    // Not before the page has loaded: its listener may not be there yet.
    expect(postMessage).not.toHaveBeenCalled();
    document.readyState = 'complete';
    page.emit('load');
    expect(postMessage).toHaveBeenCalledWith(IMAGE_PORT_MESSAGE, 'pictor-app://images', [port]);
    ipcRenderer.emit(IMAGE_PORT_CHANNEL, { ports: [{ name: 'another' }] });
    expect(postMessage).toHaveBeenCalledTimes(1);
    expect(ipcRenderer.listenerCount(IMAGE_PORT_CHANNEL)).toBe(0);
  });
});

/**
 * The image renderer's preload: it takes the one MessagePort the main process sends, hands it to
 * the page once the page has loaded (its listener is set up by then), and does nothing else. No
 * API is exposed; a second port, or anything else, is ignored.
 */
import { ipcRenderer, type IpcRendererEvent } from 'electron';
import { IMAGE_PORT_CHANNEL, IMAGE_PORT_MESSAGE } from '../shared/image-renderer/protocol';

function handOver(port: MessagePort): void {
  window.postMessage(IMAGE_PORT_MESSAGE, window.location.origin, [port]);
}

function takePort(event: IpcRendererEvent): void {
  const port = event.ports[0];
  if (event.ports.length !== 1 || !port) return;
  ipcRenderer.removeListener(IMAGE_PORT_CHANNEL, takePort);
  if (document.readyState === 'complete') handOver(port);
  else window.addEventListener('load', () => handOver(port), { once: true });
}

ipcRenderer.on(IMAGE_PORT_CHANNEL, takePort);

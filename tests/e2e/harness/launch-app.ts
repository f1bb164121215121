/**
 * The one entry point of the end-to-end journeys: `launchApp()` starts Pictor on the given
 * folders in the host this machine has (see host.ts) and hands back its window as a Playwright
 * page. Specs never branch on the host except where the chromium host records more
 * (`ipcPayloads`, `osCalls`).
 */
import type { LaunchedApp, LaunchOptions } from './app-types';
import { launchChromiumApp } from './chromium-host';
import { launchElectronApp } from './electron-host';
import { electronExecutable, hostName, type Host } from './host';

export {
  DEFAULT_VIEWPORT,
  waitForAppShell,
  type LaunchedApp,
  type LaunchOptions,
} from './app-types';
export { hostName, type Host };

export function launchApp(options: LaunchOptions): Promise<LaunchedApp> {
  const executable = hostName() === 'electron' ? electronExecutable() : null;
  return executable ? launchElectronApp(options, executable) : launchChromiumApp(options);
}

/**
 * Default folders outside Electron (the CLI). They match what Electron's `app.getPath('userData')`
 * and `app.getPath('pictures')` give, so the CLI and the app share one history by default.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

const APP_NAME = 'Pictor';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

export function defaultGalleryDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_PICTURES_DIR ?? join(homedir(), 'Pictures'), APP_NAME);
}

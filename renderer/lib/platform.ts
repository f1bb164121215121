/** The platform the window runs on, as the keys and sentences that differ on a Mac ask it. */

/** Whether the app runs on a Mac (its own platform, else the page's guess). */
export function isMacPlatform(platform: string | undefined): boolean {
  return platform === 'darwin' || (platform === undefined && /Mac/.test(navigator.platform));
}

/** The systems whose copies say differently why they cannot install an update themselves. */
export type UpdatePlatform = 'mac' | 'windows' | 'linux';

/** Which one the app runs on (its own platform, else the page's guess). */
export function updatePlatform(platform: string | undefined): UpdatePlatform {
  if (isMacPlatform(platform)) return 'mac';
  const windows =
    platform === 'win32' || (platform === undefined && /Win/.test(navigator.platform));
  return windows ? 'windows' : 'linux';
}

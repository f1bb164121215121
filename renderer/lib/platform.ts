/** The platform the window runs on, as the keys and sentences that differ on a Mac ask it. */

/** Whether the app runs on a Mac (its own platform, else the page's guess). */
export function isMacPlatform(platform: string | undefined): boolean {
  return platform === 'darwin' || (platform === undefined && /Mac/.test(navigator.platform));
}

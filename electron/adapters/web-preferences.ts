/**
 * The webPreferences every Pictor window carries, declared once: the page runs sandboxed and
 * isolated, with no Node anywhere (frames and workers included), the web's own security on, no
 * insecure content, no <webview>, no experimental features, no navigation by a dropped file and
 * no middle-click opening (Auxclick). Each window adds only what differs (its preload, dialogs,
 * spellcheck, DevTools), and tests/unit/window/web-preferences.test.ts checks that both windows
 * carry every one of these flags.
 */
export const HARDENED_WEB_PREFERENCES = {
  sandbox: true,
  contextIsolation: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  disableBlinkFeatures: 'Auxclick',
} as const;

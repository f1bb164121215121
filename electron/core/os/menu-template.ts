/**
 * The application menu as data: the standard menus each platform expects (the macOS app menu
 * with About, Services, Hide and Quit; File/Edit/View/Window/Help), with Pictor's own items.
 * Items that act in the page send a menu command to the renderer; the adapter only builds it.
 * Development items (reload, DevTools) exist only when the app is not packaged.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MENU_COMMANDS } from '../../../shared/ipc/contract';

export type MenuCommand = (typeof MENU_COMMANDS)[number];

export interface MenuOptions {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** `app.isPackaged`: no reload or DevTools items in a packaged build. */
  readonly packaged: boolean;
  /** A renderer action: main forwards it as the `menu:command` event. */
  readonly onCommand: (command: MenuCommand) => void;
  /** Help → Open Logs Folder. */
  readonly onOpenLogs: () => void;
}

type Item = MenuItemConstructorOptions;

const separator: Item = { type: 'separator' };

function command(
  options: MenuOptions,
  label: string,
  name: MenuCommand,
  accelerator?: string,
): Item {
  return {
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => options.onCommand(name),
  };
}

function settingsItem(options: MenuOptions): Item {
  return command(options, 'Settings…', 'open-settings', 'CmdOrCtrl+,');
}

function appMenu(options: MenuOptions): Item {
  return {
    label: options.appName,
    submenu: [
      { role: 'about' },
      separator,
      settingsItem(options),
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };
}

function fileMenu(options: MenuOptions, mac: boolean): Item {
  const newPrompt = command(options, 'New Prompt', 'new-prompt', 'CmdOrCtrl+N');
  const submenu: Item[] = mac
    ? [newPrompt, separator, { role: 'close' }]
    : [newPrompt, separator, settingsItem(options), separator, { role: 'close' }, { role: 'quit' }];
  return { label: mac ? 'File' : '&File', submenu };
}

function editMenu(mac: boolean): Item {
  const submenu: Item[] = [{ role: 'undo' }, { role: 'redo' }, separator];
  submenu.push({ role: 'cut' }, { role: 'copy' }, { role: 'paste' });
  if (mac) submenu.push({ role: 'pasteAndMatchStyle' });
  submenu.push({ role: 'delete' }, separator, { role: 'selectAll' });
  return { label: mac ? 'Edit' : '&Edit', submenu };
}

function viewMenu(options: MenuOptions, mac: boolean): Item {
  const development: Item[] = options.packaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator];
  return {
    label: mac ? 'View' : '&View',
    submenu: [
      command(options, 'Tasks', 'show-tasks', 'CmdOrCtrl+1'),
      command(options, 'Gallery', 'show-gallery', 'CmdOrCtrl+2'),
      command(options, 'Search', 'focus-search', 'CmdOrCtrl+F'),
      separator,
      ...development,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
}

function windowMenu(mac: boolean): Item {
  if (mac) {
    return {
      label: 'Window',
      role: 'window',
      submenu: [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }],
    };
  }
  // Close is in File (Ctrl+W); a second Close here would register the shortcut twice.
  return { label: '&Window', submenu: [{ role: 'minimize' }] };
}

function helpMenu(options: MenuOptions, mac: boolean): Item {
  const logs: Item = { label: 'Open Logs Folder', click: () => options.onOpenLogs() };
  // macOS has About in the app menu; elsewhere Help is where people look for it.
  const submenu: Item[] = mac ? [logs] : [logs, separator, { role: 'about' }];
  return { label: mac ? 'Help' : '&Help', role: 'help', submenu };
}

/** The menu template for `Menu.buildFromTemplate`. */
export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  return [
    ...(mac ? [appMenu(options)] : []),
    fileMenu(options, mac),
    editMenu(mac),
    viewMenu(options, mac),
    windowMenu(mac),
    helpMenu(options, mac),
  ];
}

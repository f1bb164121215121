/**
 * The application menu as data: the standard menus each platform expects (the macOS app menu
 * with About, Services, Hide and Quit; File/Edit/View/Window/Help), with Pictor's own items.
 * Items that act in the page send a menu command to the renderer; the adapter only builds it.
 * Development items (reload, DevTools) exist only when the app is not packaged.
 * Labels come from the main catalogue (app/i18n) in the user's language; the host rebuilds the
 * menu when the language changes. Role items get labels too: Electron's own are English only.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MENU_COMMANDS } from '../../../shared/ipc/contract';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { mainText } from '../i18n/main-text';

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
  /**
   * macOS app menu → Install Command Line Tool… (app/os/command-line-tool.ts); absent where
   * there is no bundle to link to (development).
   */
  readonly onInstallCommandLineTool?: () => void;
}

type Item = MenuItemConstructorOptions;

const separator: Item = { type: 'separator' };

type Role = NonNullable<Item['role']>;

/** A standard item (its behaviour and shortcut from Electron) with a label in the user's language. */
function role(name: Role, key: MainMessageKey, params: Record<string, string> = {}): Item {
  return { role: name, label: mainText(key, params) };
}

/**
 * A top-level menu's name: with its Windows/Linux access key (`&Datei`, `ファイル(&F)`), on macOS
 * without (no mnemonics there; `&&` stays a literal ampersand elsewhere).
 */
function menuName(key: MainMessageKey, mac: boolean): string {
  const text = mainText(key);
  if (!mac) return text;
  return text
    .replace(/\s*\(&[^)]\)/g, '')
    .replace(/&(&?)/g, (_match, literal: string) => literal)
    .trim();
}

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

/**
 * An item whose shortcut the page answers itself (shown, not registered): the screens' Ctrl/Cmd+1,
 * 2 and 3 (renderer/shell/screen-keys.ts) and page zoom's Ctrl/Cmd+0 mean 100 % and fit in the
 * image viewer, so the menu must not take them before the page sees them.
 */
function pageKey(item: Item): Item {
  return { ...item, registerAccelerator: false };
}

function settingsItem(options: MenuOptions): Item {
  return command(options, mainText('menu.settings'), 'open-settings', 'CmdOrCtrl+,');
}

function commandLineToolItem(options: MenuOptions): Item[] {
  const click = options.onInstallCommandLineTool;
  return click ? [{ label: mainText('menu.installCommandLineTool'), click: () => click() }] : [];
}

function appMenu(options: MenuOptions): Item {
  return {
    label: options.appName,
    submenu: [
      role('about', 'menu.about', { app: options.appName }),
      separator,
      settingsItem(options),
      ...commandLineToolItem(options),
      separator,
      role('services', 'menu.services'),
      separator,
      role('hide', 'menu.hide', { app: options.appName }),
      role('hideOthers', 'menu.hideOthers'),
      role('unhide', 'menu.showAll'),
      separator,
      role('quit', 'menu.quit', { app: options.appName }),
    ],
  };
}

function fileMenu(options: MenuOptions, mac: boolean): Item {
  const newPrompt = command(options, mainText('menu.newPrompt'), 'new-prompt', 'CmdOrCtrl+N');
  const close = role('close', 'menu.closeWindow');
  const quit = role('quit', 'menu.quit', { app: options.appName });
  const submenu: Item[] = mac
    ? [newPrompt, separator, close]
    : [newPrompt, separator, settingsItem(options), separator, close, quit];
  return { label: menuName('menu.file', mac), submenu };
}

function editMenu(mac: boolean): Item {
  const submenu: Item[] = [role('undo', 'menu.undo'), role('redo', 'menu.redo'), separator];
  submenu.push(role('cut', 'menu.cut'), role('copy', 'menu.copy'), role('paste', 'menu.paste'));
  if (mac) submenu.push(role('pasteAndMatchStyle', 'menu.pasteAndMatchStyle'));
  submenu.push(role('delete', 'menu.delete'), separator, role('selectAll', 'menu.selectAll'));
  return { label: menuName('menu.edit', mac), submenu };
}

function viewMenu(options: MenuOptions, mac: boolean): Item {
  const development: Item[] = options.packaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator];
  return {
    label: menuName('menu.view', mac),
    submenu: [
      pageKey(command(options, mainText('menu.tasks'), 'show-tasks', 'CmdOrCtrl+1')),
      pageKey(command(options, mainText('menu.gallery'), 'show-gallery', 'CmdOrCtrl+2')),
      // The sidebar's order and keys (renderer/shell/screen-keys.ts); Settings, the
      // sidebar's fourth, is under File (the app menu on a Mac) with its own Ctrl+,.
      pageKey(command(options, mainText('menu.costs'), 'show-costs', 'CmdOrCtrl+3')),
      command(options, mainText('menu.search'), 'focus-search', 'CmdOrCtrl+F'),
      // Answered by the page too (shell/prompt-history-key.ts), even while a field has the focus.
      pageKey(
        command(options, mainText('menu.promptHistory'), 'prompt-history', 'CmdOrCtrl+Shift+H'),
      ),
      separator,
      pageKey(command(options, mainText('menu.triageView'), 'triage-view', 'CmdOrCtrl+Shift+T')),
      command(options, mainText('menu.autoAdvance'), 'auto-advance'),
      separator,
      ...development,
      pageKey(role('resetZoom', 'menu.actualSize')),
      role('zoomIn', 'menu.zoomIn'),
      role('zoomOut', 'menu.zoomOut'),
      separator,
      role('togglefullscreen', 'menu.fullScreen'),
    ],
  };
}

function windowMenu(mac: boolean): Item {
  if (mac) {
    return {
      label: menuName('menu.window', mac),
      role: 'window',
      submenu: [
        role('minimize', 'menu.minimize'),
        role('zoom', 'menu.zoom'),
        separator,
        role('front', 'menu.bringAllToFront'),
      ],
    };
  }
  // Close is in File (Ctrl+W); a second Close here would register the shortcut twice.
  return { label: menuName('menu.window', mac), submenu: [role('minimize', 'menu.minimize')] };
}

function helpMenu(options: MenuOptions, mac: boolean): Item {
  const logs: Item = { label: mainText('menu.openLogs'), click: () => options.onOpenLogs() };
  // macOS has About in the app menu; elsewhere Help is where people look for it.
  const about = role('about', 'menu.about', { app: options.appName });
  const submenu: Item[] = mac ? [logs] : [logs, separator, about];
  return { label: menuName('menu.help', mac), role: 'help', submenu };
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

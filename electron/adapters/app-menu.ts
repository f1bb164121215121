/** Installs the application menu built by app/os/menu-template.ts. */
import { Menu } from 'electron';
import type { MenuOptions } from '../app/os/menu-template';
import { buildMenuTemplate } from '../app/os/menu-template';

/** Builds the menu for this platform and makes it the application menu. */
export function installApplicationMenu(options: MenuOptions): Menu {
  const menu = Menu.buildFromTemplate(buildMenuTemplate(options));
  Menu.setApplicationMenu(menu);
  return menu;
}

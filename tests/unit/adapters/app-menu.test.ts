import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  const built: { template: MenuItemConstructorOptions[] }[] = [];
  const applied: unknown[] = [];
  return {
    built,
    applied,
    Menu: {
      buildFromTemplate: (template: MenuItemConstructorOptions[]) => {
        const menu = { template };
        built.push(menu);
        return menu;
      },
      setApplicationMenu: (menu: unknown) => applied.push(menu),
    },
  };
});

vi.mock('electron', () => ({ Menu: electron.Menu }));

const { installApplicationMenu } = await import('../../../electron/adapters/app-menu');

describe('installApplicationMenu', () => {
  it('builds the platform template and makes it the application menu', () => {
    const commands: string[] = [];
    const menu = installApplicationMenu({
      platform: 'darwin',
      appName: 'Pictor',
      packaged: true,
      onCommand: (command) => commands.push(command),
      onOpenLogs: () => undefined,
    });
    expect(electron.built).toHaveLength(1);
    expect(electron.applied).toEqual([menu]);
    const template = electron.built[0]!.template;
    expect(template.map((item) => item.label)).toEqual([
      'Pictor',
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ]);
    const file = template[1]!.submenu as MenuItemConstructorOptions[];
    (file[0]!.click as () => void)();
    expect(commands).toEqual(['new-prompt']);
  });
});

import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { MENU_COMMANDS } from '../../../../shared/ipc/contract';
import type { MenuCommand, MenuOptions } from '../../../../electron/app/os/menu-template';
import { buildMenuTemplate } from '../../../../electron/app/os/menu-template';

type Item = MenuItemConstructorOptions;

function build(platform: NodeJS.Platform, packaged = true) {
  const commands: MenuCommand[] = [];
  let logsOpened = 0;
  const options: MenuOptions = {
    platform,
    appName: 'Pictor',
    packaged,
    onCommand: (command) => commands.push(command),
    onOpenLogs: () => {
      logsOpened += 1;
    },
  };
  return { template: buildMenuTemplate(options), commands, logsOpened: () => logsOpened };
}

function submenu(item: Item | undefined): Item[] {
  return (item?.submenu ?? []) as Item[];
}

/** Every item, depth first. */
function flatten(items: Item[]): Item[] {
  return items.flatMap((item) => [item, ...flatten(submenu(item))]);
}

function find(items: Item[], label: string): Item {
  const item = flatten(items).find((candidate) => candidate.label === label);
  if (!item) throw new Error(`no item ${label}`);
  return item;
}

function click(item: Item): void {
  (item.click as () => void)();
}

function roles(items: Item[]): string[] {
  return items.map((item) => item.role ?? item.type ?? item.label ?? '?');
}

describe('macOS', () => {
  const { template, commands, logsOpened } = build('darwin');

  it('has the app menu first, then File, Edit, View, Window, Help', () => {
    expect(template.map((item) => item.label)).toEqual([
      'Pictor',
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ]);
  });

  it('the app menu: About, Settings (Cmd+,), Services, Hide, Quit', () => {
    expect(roles(submenu(template[0]))).toEqual([
      'about',
      'separator',
      'Settings…',
      'separator',
      'services',
      'separator',
      'hide',
      'hideOthers',
      'unhide',
      'separator',
      'quit',
    ]);
    expect(find(template, 'Settings…').accelerator).toBe('CmdOrCtrl+,');
    expect(roles(submenu(template[1]))).toEqual(['New Prompt', 'separator', 'close']);
  });

  it('Window is the macOS window menu; Help has the logs and no About', () => {
    expect(template[4]).toMatchObject({ role: 'window' });
    expect(roles(submenu(template[4]))).toEqual(['minimize', 'zoom', 'separator', 'front']);
    expect(template[5]).toMatchObject({ role: 'help' });
    expect(roles(submenu(template[5]))).toEqual(['Open Logs Folder']);
  });

  it('Edit has the standard roles with Paste and Match Style', () => {
    expect(roles(submenu(template[2]))).toEqual([
      'undo',
      'redo',
      'separator',
      'cut',
      'copy',
      'paste',
      'pasteAndMatchStyle',
      'delete',
      'separator',
      'selectAll',
    ]);
  });

  it('Open Logs Folder calls its callback', () => {
    click(find(template, 'Open Logs Folder'));
    expect(logsOpened()).toBe(1);
    expect(commands).toEqual([]);
  });
});

describe.each(['win32', 'linux'] as const)('%s', (platform) => {
  const { template } = build(platform);

  it('has no app menu; menus have mnemonics', () => {
    expect(template.map((item) => item.label)).toEqual([
      '&File',
      '&Edit',
      '&View',
      '&Window',
      '&Help',
    ]);
  });

  it('File holds New Prompt, Settings (Ctrl+,), Close and Quit', () => {
    expect(roles(submenu(template[0]))).toEqual([
      'New Prompt',
      'separator',
      'Settings…',
      'separator',
      'close',
      'quit',
    ]);
    expect(find(template, 'Settings…').accelerator).toBe('CmdOrCtrl+,');
  });

  it('Window minimizes; Close appears once (in File)', () => {
    expect(roles(submenu(template[3]))).toEqual(['minimize']);
    expect(flatten(template).filter((item) => item.role === 'close')).toHaveLength(1);
  });

  it('Help has the logs and About; no macOS-only roles anywhere', () => {
    expect(roles(submenu(template[4]))).toEqual(['Open Logs Folder', 'separator', 'about']);
    const all = flatten(template).map((item) => item.role);
    for (const macOnly of ['services', 'hide', 'hideOthers', 'unhide', 'front', 'zoom']) {
      expect(all).not.toContain(macOnly);
    }
    expect(all).not.toContain('pasteAndMatchStyle');
  });
});

describe.each(['darwin', 'win32', 'linux'] as const)('commands on %s', (platform) => {
  it('each renderer action has its accelerator and sends its command', () => {
    const { template, commands } = build(platform);
    const expected: [string, string | undefined, MenuCommand][] = [
      ['New Prompt', 'CmdOrCtrl+N', 'new-prompt'],
      ['Tasks', 'CmdOrCtrl+1', 'show-tasks'],
      ['Gallery', 'CmdOrCtrl+2', 'show-gallery'],
      ['Costs', 'CmdOrCtrl+3', 'show-costs'],
      ['Search', 'CmdOrCtrl+F', 'focus-search'],
      ['Prompt History…', 'CmdOrCtrl+Shift+H', 'prompt-history'],
      ['Triage View', 'CmdOrCtrl+Shift+T', 'triage-view'],
      ['Auto-Advance', undefined, 'auto-advance'],
      ['Settings…', 'CmdOrCtrl+,', 'open-settings'],
    ];
    for (const [label, accelerator] of expected) {
      expect(find(template, label).accelerator).toBe(accelerator);
      click(find(template, label));
    }
    expect(commands).toEqual(expected.map(([, , command]) => command));
    expect([...commands].sort()).toEqual([...MENU_COMMANDS].sort());
  });

  it('no accelerator is used twice', () => {
    const { template } = build(platform, false);
    const accelerators = flatten(template)
      .map((item) => item.accelerator)
      .filter(Boolean);
    expect(new Set(accelerators).size).toBe(accelerators.length);
    // Roles bring their own shortcuts: each appears once.
    const itemRoles = flatten(template)
      .filter((item) => !item.submenu)
      .map((item) => item.role)
      .filter(Boolean);
    expect(new Set(itemRoles).size).toBe(itemRoles.length);
  });
});

describe('keys the page answers', () => {
  it('are shown but not registered: the viewer’s Ctrl/Cmd+0 and 1, the screens, the Triage view, the prompt history', () => {
    const { template } = build('darwin');
    for (const label of ['Tasks', 'Gallery', 'Costs', 'Triage View', 'Prompt History…']) {
      expect(find(template, label).registerAccelerator).toBe(false);
    }
    const resetZoom = flatten(template).find((item) => item.role === 'resetZoom');
    expect(resetZoom?.registerAccelerator).toBe(false);
    // The rest stay the menu's own.
    expect(find(template, 'Search').registerAccelerator).toBeUndefined();
  });
});

describe('development items', () => {
  it('reload and DevTools exist only when not packaged', () => {
    const viewRoles = (packaged: boolean) =>
      flatten(build('linux', packaged).template).map((item) => item.role);
    expect(viewRoles(false)).toEqual(
      expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']),
    );
    for (const role of ['reload', 'forceReload', 'toggleDevTools'])
      expect(viewRoles(true)).not.toContain(role);
  });

  it('View keeps zoom and full screen either way', () => {
    const view = submenu(build('darwin').template[3]);
    expect(roles(view)).toEqual([
      'Tasks',
      'Gallery',
      'Costs',
      'Search',
      'Prompt History…',
      'separator',
      'Triage View',
      'Auto-Advance',
      'separator',
      'resetZoom',
      'zoomIn',
      'zoomOut',
      'separator',
      'togglefullscreen',
    ]);
  });
});

describe('Install Command Line Tool…', () => {
  function withTool(platform: NodeJS.Platform) {
    let installs = 0;
    const template = buildMenuTemplate({
      platform,
      appName: 'Pictor',
      packaged: true,
      onCommand: () => undefined,
      onOpenLogs: () => undefined,
      onInstallCommandLineTool: () => {
        installs += 1;
      },
    });
    return { template, installs: () => installs };
  }

  it('follows Settings in the macOS app menu when the host offers it, and runs its action', () => {
    const { template, installs } = withTool('darwin');
    expect(roles(submenu(template[0])).slice(2, 5)).toEqual([
      'Settings…',
      'Install Command Line Tool…',
      'separator',
    ]);
    click(find(template, 'Install Command Line Tool…'));
    expect(installs()).toBe(1);
  });

  it('is not there without the action (development) nor off macOS', () => {
    expect(flatten(build('darwin').template).map((item) => item.label)).not.toContain(
      'Install Command Line Tool…',
    );
    for (const platform of ['win32', 'linux'] as const)
      expect(flatten(withTool(platform).template).map((item) => item.label)).not.toContain(
        'Install Command Line Tool…',
      );
  });
});

/**
 * The main process follows the `language` setting without a restart: the application menu is
 * rebuilt in the new language (Electron's Menu faked, as in app-menu.test.ts), and notifications
 * and the key-origin question composed afterwards read in it, with origins and fingerprint exact.
 */
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import {
  followMainLanguage,
  mainLocale,
  mainText,
  setMainLanguage,
  useSystemLanguages,
  type LanguageSetting,
} from '../../../../electron/app/i18n/main-text';
import {
  NotificationPolicy,
  type NotificationContent,
} from '../../../../electron/app/os/notification-policy';
import { keyOriginMessage } from '../../../../electron/adapters/dialog-prompts';
import { ManualClock } from '../../../fakes/manual-clock';
import { makeImage, makeRecord } from '../../core/history/history-fixtures';
import { toDisposable } from '../../../../electron/ports/disposable';

type Item = MenuItemConstructorOptions;

const electron = vi.hoisted(() => {
  const built: { template: Item[] }[] = [];
  const applied: unknown[] = [];
  return {
    built,
    applied,
    Menu: {
      buildFromTemplate: (template: Item[]) => {
        const menu = { template };
        built.push(menu);
        return menu;
      },
      setApplicationMenu: (menu: unknown) => applied.push(menu),
    },
  };
});

vi.mock('electron', () => ({ Menu: electron.Menu }));

const { installApplicationMenu } = await import('../../../../electron/adapters/app-menu');

/** A settings service's `language` with get/onChange, as SettingsService offers them. */
function languageSetting(initial: string) {
  let language = initial;
  const listeners = new Set<(settings: { language: string }) => void>();
  const setting: LanguageSetting = {
    get: () => ({ language }),
    onDidChange: (listener) => {
      listeners.add(listener);
      return toDisposable(() => listeners.delete(listener));
    },
  };
  const change = (next: string) => {
    language = next;
    for (const listener of listeners) listener({ language });
  };
  return { setting, change, listeners };
}

function labels(items: readonly Item[]): string[] {
  return items.map((item) => String(item.label));
}

function submenu(item: Item | undefined): Item[] {
  return (item?.submenu ?? []) as Item[];
}

function lastMenu(): Item[] {
  return electron.built.at(-1)!.template;
}

afterEach(() => {
  useSystemLanguages(() => []);
  setMainLanguage('system');
  electron.built.length = 0;
  electron.applied.length = 0;
});

describe('the application menu', () => {
  function follow(platform: NodeJS.Platform, initial: string) {
    const { setting, change, listeners } = languageSetting(initial);
    const install = () =>
      installApplicationMenu({
        platform,
        appName: 'Pictor',
        packaged: true,
        onCommand: () => undefined,
        onOpenLogs: () => undefined,
      });
    const following = followMainLanguage(setting, install);
    install();
    return { change, following, listeners };
  }

  it('is rebuilt in German, then Arabic, when the setting changes (Windows: access keys)', () => {
    const { change } = follow('win32', 'en');
    expect(labels(lastMenu())).toEqual(['&File', '&Edit', '&View', '&Window', '&Help']);
    change('de');
    expect(electron.built).toHaveLength(2);
    expect(electron.applied).toHaveLength(2);
    expect(labels(lastMenu())).toEqual(['&Datei', '&Bearbeiten', '&Ansicht', '&Fenster', '&Hilfe']);
    expect(labels(submenu(lastMenu()[0]))).toEqual([
      'Neuer Prompt',
      'undefined',
      'Einstellungen…',
      'undefined',
      'Fenster schließen',
      'Pictor beenden',
    ]);
    // Standard items keep their role (behaviour, shortcut) with a translated label.
    expect(submenu(lastMenu()[1]).find((item) => item.role === 'copy')?.label).toBe('Kopieren');
    change('ar');
    expect(mainLocale().dir).toBe('rtl');
    expect(labels(lastMenu())).toEqual(['&ملف', '&تحرير', '&عرض', '&نافذة', 'م&ساعدة']);
    expect(submenu(lastMenu()[2])[0]?.label).toBe('المهام');
  });

  it('on macOS: no access keys, the app name in About/Hide/Quit, roles kept', () => {
    follow('darwin', 'de');
    expect(labels(lastMenu())).toEqual([
      'Pictor',
      'Datei',
      'Bearbeiten',
      'Ansicht',
      'Fenster',
      'Hilfe',
    ]);
    const app = submenu(lastMenu()[0]);
    expect(app.map((item) => [item.role, item.label]).filter(([role]) => role)).toEqual([
      ['about', 'Über Pictor'],
      ['services', 'Dienste'],
      ['hide', 'Pictor ausblenden'],
      ['hideOthers', 'Andere ausblenden'],
      ['unhide', 'Alle einblenden'],
      ['quit', 'Pictor beenden'],
    ]);
    expect(lastMenu()[4]).toMatchObject({ role: 'window', label: 'Fenster' });
  });

  it('drops a language’s (&X) access key on macOS', () => {
    follow('darwin', 'ja');
    expect(labels(lastMenu()).slice(1)).toEqual([
      'ファイル',
      '編集',
      '表示',
      'ウインドウ',
      'ヘルプ',
    ]);
    follow('linux', 'ja');
    expect(labels(lastMenu())).toEqual([
      'ファイル(&F)',
      '編集(&E)',
      '表示(&V)',
      'ウインドウ(&W)',
      'ヘルプ(&H)',
    ]);
  });

  it('is not rebuilt when the locale shown stays the same, nor after unsubscribing', () => {
    useSystemLanguages(() => ['de-AT', 'en-US']);
    const { change, following, listeners } = follow('linux', 'system');
    expect(labels(lastMenu())[0]).toBe('&Datei');
    change('de'); // the system's language named explicitly: same locale
    expect(electron.built).toHaveLength(1);
    following.dispose();
    expect(listeners.size).toBe(0);
    change('fr');
    expect(electron.built).toHaveLength(1);
  });
});

describe('the system language', () => {
  it('follows the first supported system language, English when none, and a broken source', () => {
    useSystemLanguages(() => ['gsw-CH', 'pt-PT', 'de']);
    expect(mainLocale().tag).toBe('pt-BR');
    expect(mainText('menu.tasks')).toBe('Tarefas');
    useSystemLanguages(() => ['gsw-CH']);
    expect(mainText('menu.tasks')).toBe('Tasks');
    useSystemLanguages(() => {
      throw new Error('not ready');
    });
    expect(mainText('menu.tasks')).toBe('Tasks');
    expect(setMainLanguage('zh-TW')).toBe(true);
    expect(mainText('menu.tasks')).toBe('任務');
    expect(setMainLanguage('xx-unknown')).toBe(true);
    expect(mainLocale().tag).toBe('en');
  });
});

function processing(localId: string, prompt: string): TaskRecord {
  return makeRecord({ localId, status: 'processing', images: [], request: { prompt } });
}

describe('notifications', () => {
  async function notify(records: readonly [TaskRecord, TaskRecord][]) {
    const clock = new ManualClock();
    const shown: NotificationContent[] = [];
    const policy = new NotificationPolicy({
      clock,
      isEnabled: () => true,
      isWindowFocused: () => false,
      show: (content) => shown.push(content),
    });
    for (const [before, after] of records) {
      policy.observe(before);
      policy.observe(after);
    }
    await clock.advance(2_000);
    return shown;
  }

  it('read in the language set when they are shown', async () => {
    const task = processing('t1', 'ein Fuchs im Schnee');
    const done = { ...task, status: 'completed' as const, images: [makeImage(0), makeImage(1)] };
    setMainLanguage('de');
    expect(await notify([[task, done]])).toEqual([
      { title: '2 Bilder fertig', body: 'ein Fuchs im Schnee', localId: 't1' },
    ]);
    setMainLanguage('ar');
    const [arabic] = await notify([[task, done]]);
    expect(arabic?.title).toBe('صورتان جاهزتان');
    setMainLanguage('fr');
    const lost = { ...task, status: 'completed' as const, images: [] };
    expect((await notify([[task, lost]]))[0]).toEqual({
      title: 'Échec de la génération',
      body: 'Le service a terminé la tâche, mais aucune image n’a pu être enregistrée.\nein Fuchs im Schnee',
      localId: 't1',
    });
  });

  it('summarise a batch with the language’s plurals, quotes and list punctuation', async () => {
    const pairs = ['a', 'b', 'c', 'd', 'e'].map((id): [TaskRecord, TaskRecord] => {
      const task = processing(id, `prompt ${id}`);
      return [task, { ...task, status: 'completed', images: [makeImage(0)] }];
    });
    setMainLanguage('ru');
    expect(await notify(pairs)).toEqual([
      {
        title: '5 изображений готово',
        body: '«prompt a», «prompt b», «prompt c» и ещё 2',
        localId: null,
      },
    ]);
    setMainLanguage('ja');
    expect((await notify(pairs))[0]?.body).toBe(
      '「prompt a」、「prompt b」、「prompt c」、ほか 2 件',
    );
    setMainLanguage('de');
    expect((await notify(pairs.slice(0, 2)))[0]).toMatchObject({
      title: '2 Bilder fertig',
      body: '„prompt a“ und „prompt b“',
    });
  });
});

describe('the key-origin question', () => {
  const question = {
    fingerprint: '0123456789ab',
    from: 'https://api.provider-a.com',
    to: 'https://evil.example:8443',
  };

  it('is translated, with the origins and the fingerprint exactly as they are', () => {
    setMainLanguage('de');
    const german = keyOriginMessage(question);
    expect(german.title).toBe('API-Schlüssel an einen anderen Dienst senden?');
    expect(german.message).toBe('API-Schlüssel (0123456789ab) an evil.example:8443 senden?');
    expect(german.detail).toBe(
      'Dein Schlüssel wurde für api.provider-a.com eingegeben. Ab jetzt würde Pictor ihn an https://evil.example:8443 senden. Tu das nur, wenn dieser Dienst den Schlüssel ausgestellt hat. Andernfalls entferne den Schlüssel hier und füge den Schlüssel von evil.example:8443 ein.',
    );
    expect(german.buttons).toEqual([
      'Abbrechen',
      'Schlüssel an evil.example:8443 senden',
      'Schlüssel entfernen und Adresse ändern',
    ]);
    expect(german.buttons?.[german.cancelId ?? -1]).toBe('Abbrechen');
  });

  it('in Arabic and without a fingerprint or a previous origin', () => {
    setMainLanguage('ar');
    const arabic = keyOriginMessage({ ...question, fingerprint: null, from: null });
    expect(arabic.message).toBe('هل تريد إرسال مفتاح API إلى evil.example:8443؟');
    expect(arabic.detail).toMatch(/^حُفظ مفتاحك قبل تعيين عنوان للخدمة\. /);
    expect(arabic.detail).toContain('https://evil.example:8443');
    expect(arabic.buttons?.[1]).toBe('إرسال المفتاح إلى evil.example:8443');
  });
});

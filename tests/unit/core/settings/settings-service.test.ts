import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../../shared/domain/settings';
import { DEFAULT_SETTINGS, UNREAD_SETTINGS } from '../../../../shared/domain/settings';
import { SettingsService } from '../../../../electron/core/settings/settings-service';
import { SettingsError } from '../../../../electron/core/settings/settings-patch';
import type { LogFields } from '../../../../electron/ports/logger';
import { InMemoryKv } from '../../../fakes/in-memory-kv';
import { ownAddress, savedAddress } from '../../../support/own-address';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const COPY = '/data/settings.corrupt-2026-01-15T12-00-00-000Z.json';
const bounds = { x: 10, y: 20, width: 1000, height: 700, maximized: false };

function open(kv = new InMemoryKv('/data', 'settings')) {
  const logs: { message: string; fields?: LogFields }[] = [];
  const log = (message: string, fields?: LogFields) => logs.push({ message, fields });
  const service = new SettingsService({
    store: kv,
    now: () => NOW,
    logger: { debug: log, info: log, warn: log, error: log },
  });
  const changes: Settings[] = [];
  service.onDidChange((settings) => changes.push(settings));
  return { service, kv, changes, logs };
}

/** The English text of each problem the service found at start. */
function problems(service: SettingsService): string[] {
  return service.takeProblems().map((problem) => problem.message);
}

function refusal(run: () => unknown): SettingsError {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('expected a SettingsError');
}

describe('SettingsService defaults and changes', () => {
  it('starts with the defaults and no problems when there is no file', () => {
    const { service, kv } = open();
    expect(service.get()).toEqual(DEFAULT_SETTINGS);
    expect(problems(service)).toEqual([]);
    expect(service.getWindowBounds()).toBeNull();
    expect(kv.writes).toBe(0);
  });

  it('saves a valid change, tells listeners once, and returns a copy', () => {
    const { service, kv, changes } = open();
    const next = service.update({ theme: 'dark', defaultCount: 4, notifications: false });
    expect(next).toMatchObject({ theme: 'dark', defaultCount: 4, notifications: false });
    expect(kv.snapshot().settings).toEqual(next);
    expect(changes).toEqual([next]);
    next.theme = 'light';
    expect(service.get().theme).toBe('dark');
  });

  it('keeps the inputs settings: never upload, and the services agreed to make public links', () => {
    const { service, kv } = open();
    expect(service.get()).toMatchObject({ neverUploadInputs: false, publicUploadConsent: [] });
    const next = service.update({ neverUploadInputs: true, publicUploadConsent: ['fal'] });
    expect(next).toMatchObject({ neverUploadInputs: true, publicUploadConsent: ['fal'] });
    expect(kv.snapshot().settings).toEqual(next);
    const reopened = open(kv).service;
    expect(reopened.get()).toMatchObject({ neverUploadInputs: true, publicUploadConsent: ['fal'] });
  });

  it('does not write or tell anyone when nothing changes', () => {
    const { service, kv, changes } = open();
    service.update({ theme: 'system', defaultModel: '  ' });
    expect(kv.writes).toBe(0);
    expect(changes).toEqual([]);
  });

  it('normalises the base URL (without /v1), trims text and resolves the gallery folder', async () => {
    const { service } = open();
    const folder = resolve('/tmp', 'pictures', '..', 'Pictor');
    const next = service.update({
      ...ownAddress('  https://api.example.com/v1/  '),
      defaultModel: ' img-2 ',
    });
    expect(savedAddress(next)).toBe('https://api.example.com');
    expect(next.defaultModel).toBe('img-2');
    // The gallery folder is the main process's to set (after its own dialog and a move).
    const set = await service.setGalleryDir(`${resolve('/tmp')}/pictures/../Pictor`);
    expect(set.galleryDir).toBe(folder);
    await expect(service.setGalleryDir('Pictures/Pictor')).rejects.toThrow(/full path/);
    expect((await service.setGalleryDir('')).galleryDir).toBe('');
    expect(service.update(ownAddress(''))).toMatchObject({
      serviceBaseUrls: {},
      galleryDir: '',
    });
    expect(savedAddress(service.update(ownAddress('http://127.0.0.1:8080/')))).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it.each([
    [ownAddress('http://api.example.com'), /must start with https:\/\//, ['serviceBaseUrls']],
    [ownAddress('not a url'), /not a valid URL/, ['serviceBaseUrls']],
    [ownAddress('https://user:pw@api.example.com'), /user name or password/, ['serviceBaseUrls']],
    // The field earlier versions kept the user's own service's address in is no setting now.
    [{ baseUrl: 'https://api.example.com' }, /no setting called “baseUrl”/, ['baseUrl']],
    // The page cannot name a folder for the main process to act on, absolute or not.
    [{ galleryDir: 'Pictures/Pictor' }, /no setting called “galleryDir”/, ['galleryDir']],
    [{ galleryDir: '/home/ada' }, /no setting called “galleryDir”/, ['galleryDir']],
    [{ defaultCount: 0 }, /whole number from 1 to 10/, ['defaultCount']],
    [{ defaultCount: 2.5 }, /whole number from 1 to 10/, ['defaultCount']],
    [{ theme: 'neon' }, /system, light or dark/, ['theme']],
    [{ defaultSize: '1024' }, /look like 1024x1024/, ['defaultSize']],
    [{ watchTimeoutMinutes: -1 }, /0 \(watch forever\)/, ['watchTimeoutMinutes']],
    [{ notifications: 'yes' }, /on or off/, ['notifications']],
    [
      { neverUploadInputs: 1 },
      /“Never upload inputs” must be switched on or off/,
      ['neverUploadInputs'],
    ],
    [{ publicUploadConsent: ['fal', 'fal'] }, /each named once/, ['publicUploadConsent']],
    [{ publicUploadConsent: ['imgur'] }, /list of Pictor’s services/, ['publicUploadConsent']],
    [{ publicUploadConsent: 'fal' }, /list of Pictor’s services/, ['publicUploadConsent']],
    [{ colour: 'red' }, /no setting called “colour”/, ['colour']],
    ['theme=dark', /not a list of settings/, []],
  ])('refuses %j in a sentence and saves nothing', (patch, sentence, fields) => {
    const { service, kv, changes } = open();
    const error = refusal(() => service.update(patch));
    expect(error.message).toMatch(sentence);
    expect(error.message).toMatch(/\.$/);
    expect(error.fields).toEqual(fields);
    expect(kv.writes).toBe(0);
    expect(changes).toEqual([]);
    expect(service.get()).toEqual(DEFAULT_SETTINGS);
  });

  it('names every refused setting at once and applies none of the change', () => {
    const { service } = open();
    const error = refusal(() =>
      service.update({ defaultModel: 'kept?', defaultCount: 0, theme: 'neon' }),
    );
    expect(error.fields).toEqual(['defaultCount', 'theme']);
    // The first refusal is the sentence; every one is in the details.
    expect(error.message).toBe('The default number of tasks must be a whole number from 1 to 10.');
    expect(error.detail).toMatch(/1 to 10.*system, light or dark/);
    expect(service.get().defaultModel).toBe('');
  });

  it('says the settings were not saved when the file cannot be written, and keeps the old ones', () => {
    const { service, kv, changes } = open();
    kv.failWrites = true;
    const error = refusal(() => service.update({ theme: 'dark' }));
    expect(error.message).toMatch(/could not be saved in \/data\/settings\.json/);
    expect(service.get().theme).toBe('system');
    expect(changes).toEqual([]);
  });

  it('keeps listeners apart: a throwing one is logged, an unsubscribed one hears nothing', () => {
    const { service, changes, logs } = open();
    service.onDidChange(() => {
      throw new Error('listener broke');
    });
    const heard: string[] = [];
    const subscription = service.onDidChange((s) => heard.push(s.theme));
    service.update({ theme: 'dark' });
    subscription.dispose();
    service.update({ theme: 'light' });
    expect(heard).toEqual(['dark']);
    expect(changes.map((s) => s.theme)).toEqual(['dark', 'light']);
    const failed = logs.filter((l) => l.message === 'an event listener failed');
    expect(failed.map((l) => l.fields?.['event'])).toEqual([
      'settings changed',
      'settings changed',
    ]);
    expect(failed[0]?.fields?.['error']).toBe('Error: listener broke');
  });
});

describe('SettingsService with a damaged file', () => {
  it('replaces a file that is not JSON by defaults, keeps a copy and says so once', () => {
    const kv = new InMemoryKv('/data', 'settings');
    kv.set('settings', { ...DEFAULT_SETTINGS, theme: 'dark' });
    kv.damage();
    const { service } = open(kv);
    expect(service.get()).toEqual(UNREAD_SETTINGS);
    expect(problems(service)).toEqual([
      `Your settings file was damaged and has been reset to defaults; a copy was kept at ${COPY}. Two of those defaults are on their cautious side, as you may have chosen: updates are only checked and announced, and input images are never uploaded.`,
    ]);
    expect(problems(service)).toEqual([]);
    expect([...kv.movedAside.keys()]).toEqual([COPY]);
    expect(service.update({ theme: 'light' }).theme).toBe('light');
  });

  it.each([
    ['a list', [1, 2]],
    ['a string', 'dark'],
    ['null', null],
  ])('treats settings stored as %s as damaged', (_name, stored) => {
    const kv = new InMemoryKv('/data', 'settings');
    kv.set('settings', stored);
    kv.set('windowBounds', bounds);
    const { service } = open(kv);
    expect(service.get()).toEqual(UNREAD_SETTINGS);
    expect(problems(service)[0]).toMatch(/damaged and has been reset to defaults/);
    expect(service.getWindowBounds()).toBeNull();
  });

  // A read the system refuses is no damage: the file is the user's settings, another user owns
  // it (written under sudo) or the disk failed. Moved aside, it would read as lost settings at
  // the next start, under a sentence saying it was damaged.
  it.each(['EACCES', 'EPERM', 'EIO', 'EMFILE', 'EBUSY'])(
    'leaves a file the system refuses to read (%s) where it is, and says why',
    (code) => {
      const kv = new InMemoryKv('/data', 'settings');
      kv.set('settings', { ...DEFAULT_SETTINGS, theme: 'dark' });
      kv.unreadable(code);
      const { service, logs } = open(kv);
      expect(service.get()).toEqual(UNREAD_SETTINGS);
      expect(problems(service)).toEqual([
        'Pictor cannot read your settings file (/data/settings.json): another user owns it, or the disk failed. Pictor uses the default settings for now and leaves the file as it is, and a setting you change cannot be saved until it is readable: make the file readable for your user and restart Pictor. Two of those defaults are on their cautious side, as you may have chosen: updates are only checked and announced, and input images are never uploaded.',
      ]);
      expect(kv.movedAside.size).toBe(0);
      expect(logs.map((line) => line.message)).toContain('settings file could not be read');
      // A change is refused (not saved over the user's file), and the file is theirs again once
      // readable.
      expect(() => service.update({ theme: 'light' })).toThrow(SettingsError);
      kv.readable();
      expect(open(kv).service.get().theme).toBe('dark');
    },
  );

  it.each(['EISDIR', 'ELOOP', 'ENOTDIR'])(
    'treats %s (no settings file in its place) as damage, as before: set aside',
    (code) => {
      const kv = new InMemoryKv('/data', 'settings');
      kv.unreadable(code);
      const { service } = open(kv);
      expect(service.get()).toEqual(UNREAD_SETTINGS);
      expect(problems(service)).toEqual([
        `Your settings file was damaged and has been reset to defaults; a copy was kept at ${COPY}. Two of those defaults are on their cautious side, as you may have chosen: updates are only checked and announced, and input images are never uploaded.`,
      ]);
      expect([...kv.movedAside.keys()]).toEqual([COPY]);
    },
  );

  it('says where the file is when it could not even be moved aside', () => {
    const kv = new InMemoryKv('/data', 'settings');
    kv.damage();
    kv.failMoveAside = true;
    const { service } = open(kv);
    expect(service.get()).toEqual(UNREAD_SETTINGS);
    expect(problems(service)[0]).toMatch(
      /\(\/data\/settings\.json\) was damaged and could not be read.*Remove or repair/,
    );
    expect(() => service.update({ theme: 'dark' })).toThrow(SettingsError);
  });

  it('resets only the bad values, keeps the rest and the bounds, and rewrites the file', () => {
    const kv = new InMemoryKv('/data', 'settings');
    kv.set('settings', {
      ...DEFAULT_SETTINGS,
      baseUrl: 'http://evil.example',
      // Values no version writes (a newer one's names are kept: newer-settings-values.test.ts).
      theme: 'neon lights',
      defaultCount: 99,
      defaultModel: 'kept-model',
      galleryDir: '/pictures/pictor',
      publicUploadConsent: ['fal', 'no body'],
      extraFromTheFuture: true,
    });
    kv.set('windowBounds', bounds);
    const { service } = open(kv);
    expect(service.get()).toEqual({
      ...DEFAULT_SETTINGS,
      defaultModel: 'kept-model',
      galleryDir: resolve('/pictures/pictor'),
    });
    expect(problems(service)).toEqual([
      'The setting “service addresses” had a value Pictor cannot use and was reset to its default. ' +
        'The setting “default number of tasks” had a value Pictor cannot use and was reset to its default. ' +
        'The setting “theme” had a value Pictor cannot use and was reset to its default. ' +
        `The setting “publicUploadConsent” had a value Pictor cannot use and was reset to its default. A copy of the old file was kept at ${COPY}.`,
    ]);
    expect(kv.movedAside.get(COPY)).toMatchObject({ settings: { theme: 'neon lights' } });
    // Only the bad values replaced: a field this version does not know stays.
    expect(kv.snapshot()).toEqual({
      settings: { ...service.get(), extraFromTheFuture: true },
      windowBounds: bounds,
    });
    expect(service.getWindowBounds()).toEqual(bounds);
  });

  it('fills settings missing from an older file with defaults, silently', () => {
    const kv = new InMemoryKv('/data', 'settings');
    kv.set('settings', { theme: 'dark' });
    const writes = kv.writes;
    const { service } = open(kv);
    expect(service.get()).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark' });
    expect(problems(service)).toEqual([]);
    expect(kv.writes).toBe(writes);
  });
});

describe('SettingsService window bounds', () => {
  it('remembers valid bounds beside the settings, not inside them', () => {
    const kv = new InMemoryKv('/data', 'settings');
    const first = open(kv).service;
    expect(first.setWindowBounds({ ...bounds, maximized: true })).toBe(true);
    first.update({ theme: 'dark' });
    const again = open(kv).service;
    expect(again.getWindowBounds()).toEqual({ ...bounds, maximized: true });
    // A centred window has no place yet: kept as such, not moved to the corner.
    expect(again.setWindowBounds({ width: 900, height: 700 })).toBe(true);
    expect(again.getWindowBounds()).toEqual({ width: 900, height: 700 });
    expect(again.get()).not.toHaveProperty('windowBounds');
    expect(again.get().theme).toBe('dark');
  });

  it.each([
    { ...bounds, width: 0 },
    { ...bounds, x: 1.5 },
    { ...bounds, y: Number.NaN },
    { ...bounds, maximized: 'no' },
    { x: 1, y: 2 },
    null,
  ])('refuses bounds %j', (bad) => {
    const { service, kv } = open();
    expect(service.setWindowBounds(bad)).toBe(false);
    expect(kv.writes).toBe(0);
    expect(service.getWindowBounds()).toBeNull();
  });

  it('ignores invalid stored bounds without troubling the user', () => {
    const kv = new InMemoryKv('/data', 'settings');
    kv.set('windowBounds', { ...bounds, width: -5 });
    const { service } = open(kv);
    expect(service.getWindowBounds()).toBeNull();
    expect(problems(service)).toEqual([]);
  });

  it('logs rather than throws when bounds cannot be written, and keeps them for this run', async () => {
    const { service, kv } = open();
    kv.failWrites = true;
    expect(service.setWindowBounds(bounds)).toBe(true);
    await service.boundsSaved();
    expect(service.getWindowBounds()).toEqual(bounds);
    expect(kv.get('windowBounds')).toBeUndefined();
  });
});

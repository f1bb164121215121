/**
 * What a handler's failure becomes on the wire: each user-facing error class keeps its sentence
 * and goes out with its code; anything else is one generic sentence with the detail beside it.
 */
import { describe, expect, it } from 'vitest';
import { EngineInputError } from '../../../electron/core/engine/engine-types';
import { UserFacingError } from '../../../electron/core/errors/user-facing-error';
import { UnsafePathError } from '../../../electron/core/fs/contained-fs';
import { GalleryImageError } from '../../../electron/core/gallery/gallery-images';
import { GalleryPathError } from '../../../electron/core/fs/gallery-path';
import { GalleryMoveError } from '../../../electron/core/library/relocate';
import { HistoryError } from '../../../electron/core/history/history-error';
import { KeyVaultError } from '../../../electron/core/secrets/key-text';
import { ServiceError } from '../../../electron/core/service/service-error';
import { UrlPolicyError } from '../../../electron/core/service/url-policy';
import { SettingsError } from '../../../electron/core/settings/settings-patch';
import { toIpcError, unwrap } from '../../../electron/ipc/ipc-errors';
import type { IpcError } from '../../../shared/ipc/contract';
import { englishText, sentence } from '../../../shared/i18n/sentence';

const GENERIC =
  'Something went wrong inside Pictor. Nothing was lost; try again, and if it keeps happening, send the log file (Help › Open logs folder).';

const SAID = 'A sentence for the user.';
// Gallery errors take only catalogue sentences.
const GONE = sentence('error.gallery.imageNotInGallery');
const LINK = sentence('error.gallery.pathIsLink', { path: '/g/x' });
const OVERLAP = sentence('error.gallery.moveOverlaps');
// URL policy errors too.
const URL_SCHEME = sentence('error.service.serviceUrlScheme');
// Key vault errors too.
const KEY_EMPTY = sentence('error.settings.keyEmpty');
const KEY_ENCRYPT = sentence('error.settings.keyEncryptFailed');

describe('toIpcError', () => {
  it.each<[string, Error, IpcError]>([
    [
      'a refused settings change',
      new SettingsError(SAID, ['baseUrl']),
      { code: 'bad_input', message: SAID },
    ],
    ['a failed settings save', new SettingsError(SAID), { code: 'failed', message: SAID }],
    [
      'a refused key',
      new KeyVaultError('invalid_key', KEY_EMPTY),
      { code: 'bad_input', message: englishText(KEY_EMPTY), sentence: KEY_EMPTY },
    ],
    [
      'an unsaved key',
      new KeyVaultError('not_saved', KEY_ENCRYPT),
      { code: 'failed', message: englishText(KEY_ENCRYPT), sentence: KEY_ENCRYPT },
    ],
    [
      'a missing image',
      new GalleryImageError(GONE),
      { code: 'not_found', message: englishText(GONE), sentence: GONE },
    ],
    ['a refused engine input', new EngineInputError(SAID), { code: 'failed', message: SAID }],
    [
      'a refused URL',
      new UrlPolicyError(URL_SCHEME),
      { code: 'failed', message: englishText(URL_SCHEME), sentence: URL_SCHEME },
    ],
    ['a refused gallery path', new GalleryPathError(SAID), { code: 'failed', message: SAID }],
    [
      'a service failure with its detail',
      new ServiceError({
        kind: 'server',
        message: SAID,
        detail: 'HTTP 503',
        mayHaveReachedService: false,
      }),
      { code: 'failed', message: SAID, detail: 'HTTP 503' },
    ],
    [
      'a history failure with its detail',
      new HistoryError(SAID, { detail: 'SQLITE_CORRUPT' }),
      { code: 'failed', message: SAID, detail: 'SQLITE_CORRUPT' },
    ],
    // Subclasses of GalleryPathError in other modules: matched by class, not by their own name.
    [
      'a link refused',
      new UnsafePathError(LINK, '/g/x'),
      { code: 'failed', message: englishText(LINK), sentence: LINK },
    ],
    [
      'a stopped gallery move',
      new GalleryMoveError(OVERLAP, 1, 2),
      { code: 'failed', message: englishText(OVERLAP), sentence: OVERLAP },
    ],
  ])('sends %s with its sentence and code', (_what, error, expected) => {
    expect(toIpcError(error)).toEqual(expected);
  });

  it('matches a subclass it has never heard of, declared in another module', () => {
    class ElsewhereError extends UserFacingError {
      override readonly name = 'ElsewhereError';
    }
    const error = new ElsewhereError(SAID, { code: 'forbidden', detail: 'why' });
    expect(toIpcError(error)).toEqual({ code: 'forbidden', message: SAID, detail: 'why' });
  });

  it('leaves out an empty detail', () => {
    expect(toIpcError(new UserFacingError(SAID, { detail: '' }))).toEqual({
      code: 'failed',
      message: SAID,
    });
  });

  it.each<[string, unknown, string]>([
    ['a TypeError', new TypeError('x is undefined'), 'TypeError: x is undefined'],
    ['a thrown string', 'plain text', 'plain text'],
    ['undefined', undefined, 'undefined'],
  ])('sends %s as the generic sentence with the detail beside it', (_what, thrown, detail) => {
    expect(toIpcError(thrown)).toEqual({
      code: 'failed',
      message: GENERIC,
      sentence: { key: 'error.unexpected' },
      detail,
    });
  });

  it('does not trust a class name: an Error called HistoryError is still unknown', () => {
    const impostor = new Error('internal text, not a sentence');
    impostor.name = 'HistoryError';
    expect(toIpcError(impostor)).toEqual({
      code: 'failed',
      message: GENERIC,
      sentence: { key: 'error.unexpected' },
      detail: 'HistoryError: internal text, not a sentence',
    });
  });
});

describe('unwrap', () => {
  it('returns the value of a good Result', () => {
    expect(unwrap({ ok: true, value: 7 })).toBe(7);
  });

  it.each<IpcError>([
    { code: 'not_found', message: SAID, detail: 'ENOENT' },
    { code: 'forbidden', message: SAID },
  ])('throws an error that maps back to the same IPC error (%o)', (error) => {
    let thrown: unknown;
    try {
      unwrap({ ok: false, error });
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBeInstanceOf(UserFacingError);
    expect(toIpcError(thrown)).toEqual(error);
  });
});

/**
 * No product export that nothing needs (tests/support/dead-exports.ts says what counts; npm
 * test's typecheck finds them in its program and records them for this test when nothing has
 * changed since, tests/support/dead-exports-cache.ts). Today's remainder is listed below, each
 * with why it stays; the list may only shrink: an entry that is fixed must leave it, and a new
 * dead export fails until it is removed (or, for a seam a test needs, listed with its reason).
 */
import { describe, expect, it } from 'vitest';
import { deadExportsOf } from '../../support/dead-exports-cache';
import { REPO_ROOT } from '../../support/source-files';

/** Product code only tests use, on purpose: they observe or install state. */
const SEAMS = [
  // The locale the main process speaks now, which the language tests check after a change.
  'electron/app/i18n/main-text.ts#mainLocale',
  // Installs a loaded catalogue without the dynamic import, for the renderer's i18n tests.
  'renderer/i18n/index.ts#setCatalogue',
  // The live count of the shared clock's subscribers: a test checks none leaks.
  'renderer/lib/use-now.ts#clockSubscribers',
  // The young generation's capacity as its cap reads it: the cap's test reads it after each burst.
  'electron/core/base/heap-pages.ts#youngGenerationSize',
  // The prompt-template language's API, built ahead of the compose form's preview and the CLI
  // that take it up next; each leaves this list when its first product caller lands.
  'shared/domain/template-language.ts#escapeTemplateText',
];

describe('dead exports', () => {
  it('are only the listed ones, and every listed one is still dead', () => {
    const found = deadExportsOf(REPO_ROOT).map((dead) => dead.id);
    expect([...found].sort()).toEqual([...SEAMS].sort());
    // Without the typecheck's record, a program of its own: only work, no wait (minutes at load).
  }, 900_000);
});

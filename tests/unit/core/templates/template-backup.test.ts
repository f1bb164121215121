/**
 * The templates' copy in the library folder (template-backup.ts) and the core's closing gate
 * (core/base/closing-gate.ts): a copy asked for before the gate closed is on disk when the close
 * resolves; one asked for after is refused, logged, and makes nothing in the folder (neither the
 * copy nor `.pictor-tmp`), so a quit leaves no write behind. On real files.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClosingGate } from '../../../../electron/core/base';
import { TemplateBackup } from '../../../../electron/core/templates/template-backup';
import { silentLogger } from '../../../../electron/ports/logger';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let root: string;

beforeEach(async () => {
  root = await tempFolder('template-backup');
});

afterEach(async () => {
  await removeFolder(root);
});

const copy = () => join(root, '.pictor-templates', 'templates.json');
const none = () => ({ templates: [], wordLists: [{ name: 'colors', words: ['red'] }] });

describe('the templates’ copy as the core closes', () => {
  it('asked for before the gate closed: on disk once the close has resolved', async () => {
    const gate = new ClosingGate();
    const written = new TemplateBackup(() => root, silentLogger, gate).write(none);
    await gate.close();
    expect(existsSync(copy())).toBe(true);
    expect(JSON.parse(await readFile(copy(), 'utf8'))).toMatchObject({
      wordLists: [{ name: 'colors' }],
    });
    await written;
  });

  it('asked for once the gate has closed: refused and logged, nothing made in the folder', async () => {
    const gate = new ClosingGate();
    await gate.close();
    const warn = vi.fn();
    await new TemplateBackup(() => root, { ...silentLogger, warn }, gate).write(none);
    expect(existsSync(join(root, '.pictor-templates'))).toBe(false);
    expect(existsSync(join(root, '.pictor-tmp'))).toBe(false);
    expect(warn).toHaveBeenCalledWith('templates: the copy in the library folder was not written', {
      error: expect.stringContaining('Pictor is closing') as unknown,
    });
  });
});

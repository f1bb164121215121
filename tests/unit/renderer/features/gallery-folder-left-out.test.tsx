/**
 * Opening the library already in a folder (Settings › Gallery › Change… › Open the library there)
 * rebuilds its tasks from their sidecars, and says what it left out as `pictor rebuild` prints
 * it: how many task folders, each with its reason, and once what to do about a folder left out
 * for its name. The folder was made by whoever made it: a crafted name (a right-to-left
 * override, a new line) is shown by the rule for shown values, and nothing in it is changed.
 * Over main's real library and rebuild (the wired app).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cp, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyLibrary } from '../../../support/gallery-helpers';
import { MAX_SIDECAR_BYTES, SIDECAR_NAME } from '../../../../electron/core/gallery';
import { startWiredApp, type WiredAppOptions } from '../render-wired-app';

/** Every file under `root`, root-relative, with a hash of its bytes. */
function filesOf(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return found;
}

/** The reasons the report lists for the folders left out, each without its path, sorted. */
function leftOutReasons(report: HTMLElement): (string | undefined)[] {
  return within(report)
    .getAllByRole('listitem')
    .map((item) => item.textContent?.slice(item.querySelector('.mono')?.textContent?.length).trim())
    .sort();
}

/** A folder name only a crafted folder holds: a right-to-left override and a new line. */
const CRAFTED = 'Kite\u202Egnp.exe\nnext';

/** Opens the library in the folder `prepare` returns, from Settings; the report under the field. */
async function openLibrary(prepare: WiredAppOptions['prepare']) {
  const app = await startWiredApp({ prepare });
  await app.user.click(screen.getByRole('button', { name: 'Settings' }));
  const region = screen.getByRole('region', { name: 'Gallery' });
  await app.user.click(within(region).getByRole('button', { name: 'Change…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Change the gallery folder' });
  await app.user.click(within(dialog).getByRole('button', { name: 'Open the library there' }));
  await waitFor(() => expect(within(region).getByRole('status').textContent).toContain('added'));
  return { ...app, region };
}

describe('opening a library whose folder holds a task folder under a crafted name', () => {
  it('adds the other tasks and lists the one left out with its reason, its files untouched', async () => {
    let other = '';
    let crafted = '';
    let before: Record<string, string> = {};
    const { user, main, region } = await openLibrary(async (wired) => {
      // Two tasks made for real on the demo, the gallery copied out and the tasks forgotten.
      const made = await wired.generate(['A red kite', 'A blue boat']);
      other = join(wired.dir, 'Other library');
      await copyLibrary(wired.runtime.galleryDir(), other);
      for (const task of made) wired.runtime.core.history.delete(task.localId);
      // One task's folder renamed as a crafted folder would be.
      const sidecar = Object.keys(filesOf(other)).find((path) => path.endsWith(SIDECAR_NAME));
      const folder = join(other, dirname(sidecar ?? ''));
      crafted = join(dirname(folder), CRAFTED);
      await rename(folder, crafted);
      before = filesOf(crafted);
      wired.env.PICTOR_E2E_CHOOSE_FOLDER = other;
    });
    expect(Object.keys(before)).toContain(SIDECAR_NAME);
    expect(within(region).getByRole('status').textContent).toContain('1 of its tasks was added');
    const report = within(region).getByRole('status');
    expect(report.className).toContain('message--warning');
    const heading = within(report).getByText('1 task folder was left out:');
    await user.click(heading);
    const items = within(report).getAllByRole('listitem');
    expect(items).toHaveLength(1);
    // Its sidecar's path, escaped as a folder import shows it, then shown: U+FFFD for the override.
    const sidecar = `${relative(other, crafted)}/${SIDECAR_NAME}`;
    const shownPath = JSON.stringify(sidecar).replace('\u202E', '\uFFFD');
    expect(items[0]?.textContent).toBe(
      `${shownPath} The path holds invisible, control or look-alike characters.`,
    );
    expect(report.textContent).toContain(
      'Its task was left out and nothing in the folder was changed: rename the folder, then rebuild or open the library again.',
    );
    // Nothing in the report steers or breaks the text; nothing in the folder was changed.
    expect(report.textContent).not.toMatch(/[\u202E\n]/);
    expect(filesOf(crafted)).toEqual(before);
    expect(main.runtime.core.history.taskIds({}, 100)).toHaveLength(1);

    // In the reader's language, chosen after: the count, the rule and what to do.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Deutsch');
    await waitFor(() => expect(document.documentElement.lang).toBe('de'));
    const german = (await screen.findByText('1 Aufgabenordner wurde ausgelassen:')).closest(
      '[role="status"]',
    );
    expect(german?.textContent).toContain('Der Pfad enthält unsichtbare Zeichen');
    expect(german?.textContent).toContain('Benenne den Ordner um');
  });

  it('lists a sidecar it could not read and a copy of a task with their reasons, in the reader’s language, without the advice to rename', async () => {
    const { user, region } = await openLibrary(async (wired) => {
      const made = await wired.generate(['A red kite', 'A blue boat']);
      const other = join(wired.dir, 'Other library');
      await copyLibrary(wired.runtime.galleryDir(), other);
      for (const task of made) wired.runtime.core.history.delete(task.localId);
      const [damaged, copied] = Object.keys(filesOf(other)).filter((path) =>
        path.endsWith(SIDECAR_NAME),
      );
      // One of the two sidecars damaged (the folder still holds a library), the other task's
      // folder copied beside it.
      await writeFile(join(other, damaged ?? ''), '{"damaged": ');
      await cp(join(other, dirname(copied ?? '')), join(other, 'A copy'), { recursive: true });
      wired.env.PICTOR_E2E_CHOOSE_FOLDER = other;
    });
    let report = within(region).getByRole('status');
    await user.click(within(report).getByText('2 task folders were left out:'));
    const reasons = () => leftOutReasons(report);
    expect(reasons()).toEqual([
      'Another sidecar in the gallery describes the same task.',
      'The sidecar is not valid JSON.',
    ]);
    expect(report.textContent).not.toContain('rename the folder');

    // The reasons are sentences: in German as the rest of the window.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Deutsch');
    await waitFor(() => expect(document.documentElement.lang).toBe('de'));
    const german = await screen.findByText('2 Aufgabenordner wurden ausgelassen:');
    report = german.closest<HTMLElement>('[role="status"]')!;
    expect(reasons()).toEqual([
      'Die Begleitdatei ist kein gültiges JSON.',
      'Eine andere Begleitdatei in der Galerie beschreibt dieselbe Aufgabe.',
    ]);
  });
  it('lists a sidecar too large to read, one of a newer format and one whose record fails its check, each in the reader’s language', async () => {
    const { user, region } = await openLibrary(async (wired) => {
      const made = await wired.generate(['A red kite', 'A blue boat', 'A green hill']);
      const other = join(wired.dir, 'Other library');
      await copyLibrary(wired.runtime.galleryDir(), other);
      for (const task of made) wired.runtime.core.history.delete(task.localId);
      const [large, newer, invalid] = Object.keys(filesOf(other))
        .filter((path) => path.endsWith(SIDECAR_NAME))
        .map((path) => join(other, path));
      const sidecarOf = (path: string | undefined) =>
        JSON.parse(readFileSync(path ?? '', 'utf8')) as {
          version: number;
          record: object & { request: object };
        };
      // Valid JSON past the size a sidecar is read to; a later format; a prompt that is no text.
      await writeFile(
        large ?? '',
        `${readFileSync(large ?? '', 'utf8')}${' '.repeat(MAX_SIDECAR_BYTES)}`,
      );
      await writeFile(newer ?? '', JSON.stringify({ ...sidecarOf(newer), version: 2 }));
      const damaged = sidecarOf(invalid);
      await writeFile(
        invalid ?? '',
        JSON.stringify({
          ...damaged,
          record: { ...damaged.record, request: { ...damaged.record.request, prompt: 5 } },
        }),
      );
      wired.env.PICTOR_E2E_CHOOSE_FOLDER = other;
    });
    let report = within(region).getByRole('status');
    await user.click(within(report).getByText('3 task folders were left out:'));
    const reasons = () => leftOutReasons(report);
    expect(reasons()).toEqual([
      `The sidecar was not read. It is larger than the ${MAX_SIDECAR_BYTES} bytes Pictor reads.`,
      'The sidecar was written by a newer version of Pictor (format 2).',
      expect.stringMatching(/^The task record in the sidecar is not valid \(.*prompt.*\)\.$/),
    ]);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Deutsch');
    await waitFor(() => expect(document.documentElement.lang).toBe('de'));
    const german = await screen.findByText('3 Aufgabenordner wurden ausgelassen:');
    report = german.closest<HTMLElement>('[role="status"]')!;
    expect(reasons()).toEqual([
      expect.stringMatching(
        /^Der Aufgabendatensatz in der Begleitdatei ist nicht gültig \(.*prompt.*\)\.$/,
      ),
      'Die Begleitdatei wurde nicht gelesen. Sie ist größer als die ' +
        `${MAX_SIDECAR_BYTES} Bytes, die Pictor liest.`,
      'Die Begleitdatei wurde von einer neueren Version von Pictor geschrieben (Format 2).',
    ]);
  });
});

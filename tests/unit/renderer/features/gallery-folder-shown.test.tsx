/**
 * The folder Settings › Gallery › Change… asks about is one main's own dialog returned, but its
 * name was made by whoever made the folder (another local user, an archive unpacked there): a
 * right-to-left override or a zero-width space in it would show another folder in the question
 * the user decides on. The question shows the path by the rule for shown values
 * (shared/text/shown-value.ts): every character that steers or hides text as U+FFFD.
 */
import { screen, within } from '@testing-library/react';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const fileMain = sharedWiredMain();

describe('the folder a gallery change asks about', () => {
  for (const [name, shown] of [
    ['Trip\u202Egnp.exe', 'Trip\uFFFDgnp.exe'],
    ['Pic\u200Btures', 'Pic\uFFFDtures'],
  ] as const) {
    it(`shows ${JSON.stringify(name)} as ${JSON.stringify(shown)}; Cancel changes nothing`, async () => {
      let folder = '';
      const { user, main } = await startWiredApp({
        main: fileMain,
        prepare: (wired) => {
          folder = join(wired.dir, name);
          mkdirSync(folder, { recursive: true });
          wired.env.PICTOR_E2E_CHOOSE_FOLDER = folder;
        },
      });
      await user.click(screen.getByRole('button', { name: 'Settings' }));
      const region = screen.getByRole('region', { name: 'Gallery' });
      await user.click(within(region).getByRole('button', { name: 'Change…' }));
      const dialog = await screen.findByRole('dialog', { name: 'Change the gallery folder' });

      const path = dialog.querySelector('.folder-path')?.textContent;
      expect(path).toBe(join(main.dir, shown));
      expect(dialog.textContent).not.toContain(name);
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect([...main.callsTo('library:move'), ...main.callsTo('library:open')]).toEqual([]);
    });
  }
});

/**
 * Where the journeys' pictures go: the README's copies are refreshed on request
 * (`npm run screenshots`); an ordinary test run writes its copies under test-results, so running
 * the tests leaves the working tree clean.
 */
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { REPO_ROOT } from '../../harness/repo-paths';

export const SCREENSHOT_DIR =
  process.env.PICTOR_E2E_SCREENSHOTS === 'docs'
    ? join(REPO_ROOT, 'docs', 'screenshots', 'e2e')
    : join(REPO_ROOT, 'test-results', 'screenshots');

/** What the pictures show: four prompts the demo service draws differently. */
export const SCREENSHOT_PROMPTS: readonly string[] = [
  'A lighthouse on a rocky coast at dawn',
  'A bowl of ramen with steam rising',
  'A hot-air balloon over lavender fields',
  'A snowy mountain cabin at night',
];

/**
 * Before a picture: a confirmation the status area still says (the "Saved." of a language just
 * chosen) is dismissed, so the picture shows the screen, not the step that led to it. A
 * confirmation also goes by itself after a few seconds (shell/status-area.tsx): one that went
 * between being found and being clicked has gone as asked, so the closing is tried again until
 * none is left, never left waiting on a button that is no longer there.
 */
export async function dismissConfirmations(page: Page): Promise<void> {
  const confirmations = page.locator('.status-area .message--success');
  await expect(async () => {
    const close = confirmations.locator('.icon-button').first();
    if ((await close.count()) > 0) await close.click({ timeout: 1_000 });
    expect(await confirmations.count()).toBe(0);
  }).toPass({ timeout: 15_000 });
}

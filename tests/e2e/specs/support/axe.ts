/** axe-core over the real app's page: the serious and critical violations, and a check on them. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

/** One axe-core violation, as much as a failure message needs. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

const AXE_SCRIPT = join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js');

interface AxeResults {
  violations: {
    id: string;
    impact?: string | null;
    help: string;
    nodes: { target: unknown[] }[];
  }[];
}

/**
 * Runs axe-core over the whole page as it is now (or over the element `within` selects, such as
 * an open dialog whose page behind was checked already) and returns its serious and critical
 * violations. page.addScriptTag cannot load axe.min.js here: it adds an inline <script>, which
 * the app's CSP (script-src 'self') refuses, as it should. The script's text is evaluated
 * through the DevTools protocol instead, which the page's CSP does not govern.
 */
export async function seriousViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(await readFile(AXE_SCRIPT, 'utf8'));
  }
  const violations = await page.evaluate(async (selector) => {
    const axe = (
      window as unknown as {
        axe: { run(c: Element | Document, o: { resultTypes: string[] }): Promise<AxeResults> };
      }
    ).axe;
    const context = selector === null ? document : document.querySelector(selector);
    if (!context) throw new Error(`axe: nothing matches ${selector ?? ''}`);
    // Only violations are read: axe still runs every rule on every node, but lists one node of
    // each passed or incomplete rule instead of all of them (its documented speed-up).
    const results = await axe.run(context, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  }, within ?? null);
  return violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
}

/** Asserts axe finds nothing serious or critical; the message names the screen and the rules. */
export async function expectAccessible(page: Page, screen: string, within?: string): Promise<void> {
  const violations = await seriousViolations(page, within);
  expect(violations, `${screen}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

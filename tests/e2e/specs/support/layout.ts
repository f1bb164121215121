/**
 * Layout checks the journeys make in a real browser: controls whose words are cut, controls
 * that lie outside the window, a window that scrolls sideways.
 */
import type { Page } from '@playwright/test';

/**
 * Controls whose words do not fit: a select narrower than its chosen option's text, a compose
 * label on more than one line or running out of its field, a button whose text is cut. And whether the page scrolls sideways.
 */
export async function crampedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const measure = document.createElement('span');
    measure.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
    document.body.append(measure);
    for (const select of document.querySelectorAll<HTMLSelectElement>('select')) {
      if (select.offsetParent === null) continue;
      const style = getComputedStyle(select);
      measure.style.font = style.font;
      measure.textContent = select.selectedOptions[0]?.textContent ?? '';
      const room =
        select.clientWidth -
        Number.parseFloat(style.paddingLeft) -
        Number.parseFloat(style.paddingRight) -
        16; // the arrow
      if (measure.offsetWidth > room + 1) problems.push(`select cut: ${measure.textContent}`);
    }
    for (const label of document.querySelectorAll<HTMLElement>('.compose .field__label')) {
      const line = Number.parseFloat(getComputedStyle(label).lineHeight);
      if (label.offsetHeight > line * 1.5)
        problems.push(`label on two lines: ${label.textContent}`);
      // Kept on one line, it must not run out of its field (over the next one).
      else if (label.scrollWidth > label.clientWidth + 1)
        problems.push(`label cut: ${label.textContent}`);
    }
    for (const button of document.querySelectorAll<HTMLElement>('button')) {
      if (button.offsetParent !== null && button.scrollWidth > button.clientWidth + 1)
        problems.push(`button cut: ${button.textContent}`);
    }
    const root = document.scrollingElement;
    if (root && root.scrollWidth > root.clientWidth + 1)
      problems.push('the window scrolls sideways');
    measure.remove();
    return problems;
  });
}

/**
 * The controls of the header `selector` (and of its open panel) that lie outside the window, or
 * its sideways scroll: a control hidden in place (`visibility: hidden`, no Tab stop) is not one.
 */
export async function controlsOutside(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((header) => {
    const root = document.querySelector<HTMLElement>(header);
    if (!root) return [`no ${header}`];
    const { clientWidth: width, clientHeight: height } = document.documentElement;
    const outside: string[] = [];
    for (const control of root.querySelectorAll<HTMLElement>('button, input, select')) {
      const style = getComputedStyle(control);
      if (control.getClientRects().length === 0 || style.visibility === 'hidden') continue;
      const box = control.getBoundingClientRect();
      if (
        box.left < -0.5 ||
        box.right > width + 0.5 ||
        box.top < -0.5 ||
        box.bottom > height + 0.5
      ) {
        // Its name as a reader would say it: a field's by its label, never a select's options.
        const labels =
          'labels' in control ? (control.labels as NodeListOf<HTMLLabelElement>) : null;
        const name =
          control.getAttribute('aria-label') ??
          (labels?.[0]?.textContent || null) ??
          (control.tagName === 'BUTTON' ? control.textContent : control.tagName.toLowerCase());
        outside.push(`${name}: ${Math.round(box.left)}–${Math.round(box.right)} of ${width}`);
      }
    }
    if (root.scrollWidth > root.clientWidth + 1) outside.push(`${header} scrolls sideways`);
    const page = document.scrollingElement;
    if (page && page.scrollWidth > page.clientWidth + 1)
      outside.push('the window scrolls sideways');
    return outside;
  }, selector);
}

/**
 * The text of `selector` (a dialog, an error box) that runs out of its box: a word longer than a
 * line (the pseudo-locale's last word and its unbreakable tail) not broken, or a part of it
 * that scrolls sideways.
 */
export async function textRunningOut(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((within) => {
    const out: string[] = [];
    for (const root of document.querySelectorAll<HTMLElement>(within))
      for (const part of [root, ...root.querySelectorAll<HTMLElement>('*')]) {
        if (part.offsetParent === null || part.matches('input, select, textarea')) continue;
        if (part.scrollWidth > part.clientWidth + 1)
          out.push(
            `${part.className || part.tagName}: ${String(part.scrollWidth)} > ${String(part.clientWidth)}`,
          );
      }
    return out;
  }, selector);
}

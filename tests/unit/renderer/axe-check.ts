/**
 * The one accessibility check of the renderer's tests: axe-core's serious and critical
 * violations under `root`, each as its rule and the elements it names. Colour contrast is off
 * (jsdom does not lay out or paint; the journeys check it in a real browser).
 */
import axe from 'axe-core';

export async function seriousViolations(root: Element = document.body): Promise<string[]> {
  const result = await axe.run(root, {
    resultTypes: ['violations'],
    rules: { 'color-contrast': { enabled: false } },
  });
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`);
}

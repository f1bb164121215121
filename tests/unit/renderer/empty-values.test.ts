/**
 * The window's own sentences built from a value that may be empty (a service with no default
 * model: "Default model: {model}") show the catalogue's mark for an unknown value where it goes,
 * never a gap: every message, each of its plain values empty in turn.
 */
import { describe, expect, it } from 'vitest';
import { catalogue, t, type MessageKey } from '../../../renderer/i18n';
import { emptyValueGaps } from '../shared/empty-value-gaps';

describe("the window's sentences with an empty value", () => {
  it('show the mark for an unknown value where the value goes, never a gap', () => {
    const text = (key: string, values: Record<string, string | number>) =>
      t(key as MessageKey, values);
    const { gaps, tried } = emptyValueGaps(catalogue, text, t('format.unknown'));
    expect(tried).toBeGreaterThan(250);
    expect(gaps).toEqual([]);
    expect(t('settings.services.defaultModel', { model: '' })).toBe('Default model: —');
  });
});

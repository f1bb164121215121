/**
 * The window's dates follow the computer's time zone when it changes while the app runs. Node
 * re-reads the zone when the process's TZ changes, which only a whole process sees: a worker
 * thread's process.env is its own copy. Named `.process.test` so that it runs in a child
 * process (vitest.config.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../renderer/i18n';

/** The browser's word that the system's languages changed (the page reads them again). */
const languagesChanged = () => window.dispatchEvent(new Event('languagechange'));

describe('locale formatters', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    languagesChanged();
  });

  it('shows dates in the new time zone after the computer moves to another one', () => {
    const zone = process.env.TZ;
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('en-GB');
    languagesChanged();
    const noonUtc = Date.UTC(2026, 5, 1, 12);
    try {
      process.env.TZ = 'UTC';
      expect(formatDateTime(noonUtc)).toContain('12:00');
      process.env.TZ = 'Asia/Tokyo';
      expect(formatDateTime(noonUtc)).toContain('21:00');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

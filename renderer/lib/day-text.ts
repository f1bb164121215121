/**
 * A day as the user writes it (in their locale's order and digits: "31.12.2025", "12/31/2025",
 * "٣١/١٢/٢٠٢٥") read back as `YYYY-MM-DD`, the form the gallery's filters keep. Pure: the
 * locale's order of day, month and year and its digits are given.
 */

export type DayPart = 'day' | 'month' | 'year';

/** Latin digits for the locale's own (each index its value), then the text's groups of digits. */
function groups(text: string, digits: readonly string[]): string[] {
  let latin = '';
  for (const char of text) {
    const value = digits.indexOf(char);
    latin += value >= 0 ? String(value) : /[0-9]/.test(char) ? char : ' ';
  }
  return latin.trim().split(/\s+/).filter(Boolean);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * The day written in `text` (parts in `order`, or year first as in 2025-12-31), as
 * `YYYY-MM-DD`; '' for an empty text; null when it is not a day.
 */
export function parseDay(
  text: string,
  order: readonly DayPart[],
  digits: readonly string[],
): string | null {
  if (text.trim() === '') return '';
  const parts = groups(text, digits);
  if (parts.length !== 3) return null;
  const yearFirst = (parts[0]?.length ?? 0) === 4;
  const named = yearFirst ? (['year', 'month', 'day'] as const) : order;
  const value = (part: DayPart): number => Number(parts[named.indexOf(part)]);
  let year = value('year');
  if (year < 100) year += 2000;
  const month = value('month');
  const day = value('day');
  const date = new Date(year, month - 1, day);
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day)
    return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

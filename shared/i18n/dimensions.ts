/**
 * How every width and height is written, in the window and in main's sentences alike: `1024×768`,
 * the numbers in the locale's digits, never grouped, one `×` between and no spaces. The one home
 * of that writing: a message takes a size whole as `{size}` (or `{maskSize}`), never `{width}`
 * and `{height}` apart, so no language writes a size its own way. A sentence carries a size as
 * the request does (`1024x768`, {@link sizeParam}); the catalogue writes it for its language.
 */

/** The number format a size's two numbers are written with (for the caller's locale). */
export const DIMENSION_DIGITS: Intl.NumberFormatOptions = {
  useGrouping: false,
  maximumFractionDigits: 0,
};

/** `width`×`height` in `digits` (made with {@link DIMENSION_DIGITS} for the shown locale). */
export function dimensionsText(width: number, height: number, digits: Intl.NumberFormat): string {
  return `${digits.format(width)}×${digits.format(height)}`;
}

/** A size as a request names it (`1024x768`): its two whole numbers, or null for anything else. */
export function sizeParts(size: string): readonly [number, number] | null {
  const match = /^(\d{1,10})x(\d{1,10})$/.exec(size);
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** A size as a sentence carries it to be written in the reader's language: `1024x768`. */
export function sizeParam(width: number, height: number): string {
  return `${String(width)}x${String(height)}`;
}

/** The sentence parameters that hold a size ({@link sizeParam}). */
const SIZE_PARAMS = ['size', 'maskSize'] as const;

/** `params` with each size parameter written by {@link dimensionsText}; others as they are. */
export function withSizes(
  params: Readonly<Record<string, string | number>>,
  digits: () => Intl.NumberFormat,
): Readonly<Record<string, string | number>> {
  let written: Record<string, string | number> | null = null;
  for (const name of SIZE_PARAMS) {
    const value = params[name];
    const parts = typeof value === 'string' ? sizeParts(value) : null;
    if (!parts) continue;
    written ??= { ...params };
    written[name] = dimensionsText(parts[0], parts[1], digits());
  }
  return written ?? params;
}

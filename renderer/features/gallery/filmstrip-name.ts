/**
 * A filmstrip button's name (the Triage view): what the image is first (its prompt, cut short,
 * its rating and flag when it has them, its date), then where it is ("Image 3 of 200"), so a
 * screen reader moving along the strip hears which image each is before its place.
 */
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { flagOf, ratingOf } from '../../../shared/domain/triage';
import { formatDateTime, t } from '../../i18n';

/** How much of the prompt a name keeps. */
const PROMPT_CHARS = 60;

/** The prompt on one line, at most `max` characters (an ellipsis says it was cut). */
function excerpt(prompt: string, max = PROMPT_CHARS): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The image's rating and flag, each only when set, each after the locale's separator. */
function factsOf(item: GalleryItem): string {
  const rating = ratingOf(item.image);
  const flag = flagOf(item.image);
  const facts = [
    ...(rating > 0 ? [t('triage.rating.label', { stars: rating })] : []),
    ...(flag === 'none' ? [] : [t(flag === 'pick' ? 'triage.flag.pick' : 'triage.flag.reject')]),
  ];
  return facts.map((fact) => t('triage.view.thumbFact', { fact })).join('');
}

/** The name of `item`'s button, `position` being its "Image 3 of 200". */
export function filmstripName(item: GalleryItem, position: string): string {
  return t('triage.view.thumb', {
    prompt: excerpt(item.prompt),
    facts: factsOf(item),
    date: formatDateTime(item.createdAt),
    position,
  });
}

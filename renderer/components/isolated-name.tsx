/**
 * Names from a file or a service shown in the window (a signer, a generator, a model, a service's
 * address): each in its own `<bdi>`, so its direction is its own, a name in a right-to-left
 * script keeps its order inside one of Pictor's sentences, and nothing in it can turn the rest of
 * the line around. The main process cleans such names too (shared/text/shown-name.ts); this holds
 * for whatever reaches the page.
 */
import type { ReactNode } from 'react';
import { t, type MessageKey, type MessageParams } from '../i18n';

/** One name, isolated; `fallback` (Pictor's own words) when there is none. */
export function IsolatedName({ name, fallback }: { name: string | undefined; fallback?: string }) {
  return name === undefined || name === '' ? (fallback ?? null) : <bdi>{name}</bdi>;
}

/**
 * Where a name goes in the formatted sentence: a private-use character (U+E000), which no message
 * holds. Not a format character: every value a sentence is formatted with shows those as U+FFFD
 * (shared/text/shown-value.ts). A value that held this one would only show a name once more.
 */
const MARK = '\ue000';
const SLOT = new RegExp(`${MARK}(\\d+)${MARK}`);

/**
 * `t(key, params)` with each of `names` (placeholders of the message) in its own `<bdi>`: the
 * message is formatted with a marker in each name's place, then the markers are swapped for the
 * names, so a translation may put them anywhere, any number of times.
 */
export function sentenceWithNames(
  key: MessageKey,
  params: MessageParams,
  names: Readonly<Record<string, string>>,
): ReactNode[] {
  const entries = Object.entries(names);
  const slots = Object.fromEntries(
    entries.map(([name], index) => [name, `${MARK}${index}${MARK}`]),
  );
  return t(key, { ...params, ...slots })
    .split(SLOT)
    .map((part, index) =>
      index % 2 === 0 ? part : <bdi key={index}>{entries[Number(part)]?.[1] ?? ''}</bdi>,
    );
}

/**
 * A date filter as one text field (one tab stop, not the three of a date input), written in the
 * user's locale's order and digits, shown the same way. Empty, it shows the locale's form in
 * letters ("MM/DD/YYYY", "TT.MM.JJJJ"), which reads as a hint: a real day there ("12/31/2026")
 * read as a filter in use. What is typed is read when the field is left or Enter pressed; a text
 * that is not a day says so under the field, with an example, and changes nothing. What is typed
 * and not yet read is kept over a new language (`useKeptEdit`), until the filter's day changes.
 */
import { useEffect, useId, useState } from 'react';
import { dayParts, dayWriting, formatDayNumeric, t, type MessageKey } from '../../i18n';
import { parseDay } from '../../lib/day-text';
import type { KeptEditField } from '../../store/form-drafts';
import { useKeptEdit } from '../../store/use-form-draft';

const PART_LETTERS: Readonly<Record<string, MessageKey>> = {
  day: 'gallery.date.day',
  month: 'gallery.date.month',
  year: 'gallery.date.year',
};

/** The locale's form of a day in letters, its marks between them: the empty field's hint. */
function dayPattern(): string {
  return dayParts()
    .map((part) => {
      const letters = PART_LETTERS[part.type];
      return letters === undefined ? part.value : t(letters);
    })
    .join('');
}

/** The example the error gives: the last day of this year, in the locale's form. */
function example(): string {
  return formatDayNumeric(`${String(new Date().getFullYear())}-12-31`);
}

export function DateField({
  field,
  label,
  value,
  onChange,
}: {
  /** Where what is typed is kept (form-drafts.ts). */
  field: Extract<KeptEditField, `gallery.${string}`>;
  label: string;
  /** `YYYY-MM-DD`, or '' for none. */
  value: string;
  onChange: (day: string) => void;
}) {
  const id = useId();
  const [text, setText] = useKeptEdit(field, value, formatDayNumeric(value));
  const [wrong, setWrong] = useState(false);
  // A change from outside ("Clear filters") shows in the field (its kept text is dropped).
  useEffect(() => setWrong(false), [value]);
  const read = (): void => {
    const { order, digits } = dayWriting();
    const day = parseDay(text, order, digits);
    setWrong(day === null);
    if (day === null) return;
    setText(formatDayNumeric(day));
    if (day !== value) onChange(day);
  };
  return (
    <div className="gallery-filters__field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        className="input gallery-filters__date"
        placeholder={dayPattern()}
        value={text}
        aria-invalid={wrong ? true : undefined}
        aria-describedby={wrong ? `${id}-error` : undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={read}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            read();
          }
        }}
      />
      {wrong ? (
        <p className="field__error" id={`${id}-error`}>
          {t('gallery.date.error', { example: example() })}
        </p>
      ) : null}
    </div>
  );
}

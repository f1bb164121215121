/**
 * The gallery's Compare group filter: every image, every compare's, or one compare group's (the
 * newest groups main lists, each by when it began, its first prompt and its targets), and "Open
 * compare" beside it, which brings that group's compare view back. Shown once the library has a
 * compare. A group's prompt is the user's own text in any script: it sits in the option between
 * isolates, so it keeps its own direction and never turns the date and count around it.
 */
import type { CompareGroupSummary } from '../../../shared/domain/compare';
import { shownValue } from '../../../shared/text/shown-value';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select-field';
import { formatDateTime, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { useLoaded } from '../../store/use-loaded';
import { ANY_COMPARE, type GalleryFilters } from '../../store/gallery-list-model';

/** First strong isolate and pop directional isolate (Unicode's bidi algorithm, rule X5c). */
const FSI = '\u2068';
const PDI = '\u2069';
/**
 * The prompt's place in the formatted label (a private-use character no message holds): the
 * isolates go around the prompt after formatting, which shows a value's own format characters as
 * U+FFFD (shared/text/shown-value.ts), these two included.
 */
const SLOT = '\ue000';

function groupLabel(group: CompareGroupSummary): string {
  const label = t('gallery.compare.group', {
    date: formatDateTime(group.createdAt),
    prompt: SLOT,
    count: group.targets,
  });
  return label.replaceAll(SLOT, () => `${FSI}${shownValue(group.prompt)}${PDI}`);
}

/** The choices: all, any compare, each group listed, and the one chosen when it is not listed. */
function optionsOf(groups: readonly CompareGroupSummary[], chosen: string) {
  const listed = groups.map((group) => ({ value: group.group, label: groupLabel(group) }));
  const unlisted =
    chosen !== '' && chosen !== ANY_COMPARE && !groups.some((group) => group.group === chosen)
      ? [{ value: chosen, label: t('gallery.compare.unlisted', { id: chosen.slice(0, 8) }) }]
      : [];
  return [
    { value: '', label: t('gallery.compare.all') },
    { value: ANY_COMPARE, label: t('gallery.compare.any') },
    ...unlisted,
    ...listed,
  ];
}

export function CompareFilter({
  filters,
  onChange,
}: {
  readonly filters: GalleryFilters;
  readonly onChange: (patch: Partial<GalleryFilters>) => void;
}) {
  const groups = useLoaded(
    (state) => state.compareGroups,
    (state) => state.compareGroupsLoad,
  );
  const open = useAppStore((state) => state.compareOpen);
  // A library without compares has nothing to choose: no field, no Tab stop.
  if (groups.length === 0 && filters.compare === '') return null;
  const group = filters.compare !== ANY_COMPARE ? filters.compare : '';
  return (
    <div className="gallery-filters__compare">
      <SelectField
        className="gallery-filters__field"
        label={t('gallery.compare.label')}
        value={filters.compare}
        options={optionsOf(groups, filters.compare)}
        onChange={(compare) => onChange({ compare })}
      />
      {/* Kept in place without a group (hidden, no Tab stop), so the bar never reflows. */}
      <Button
        size="small"
        className={group ? undefined : 'gallery-filters__open--idle'}
        tabIndex={group ? undefined : -1}
        aria-hidden={group ? undefined : true}
        onClick={() => {
          if (group) void open(group);
        }}
      >
        {t('compare.open')}
      </Button>
    </div>
  );
}

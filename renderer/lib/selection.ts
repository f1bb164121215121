/**
 * A list's multi-selection, as the desktop's file managers do it: a click selects one item,
 * Ctrl/Cmd+click toggles one, Shift+click selects the range from the anchor (the last item
 * clicked without Shift), Ctrl/Cmd+Shift+click adds that range, Ctrl/Cmd+A selects everything
 * the list has, loaded or not ("All 300 images": the whole filtered set, see {@link Whole}), and
 * Escape clears. Pure functions over an immutable value, generic over the id type, shared by the
 * task history and the gallery.
 *
 * The selection holds ids, not positions: it survives a next page being appended, and a range is
 * taken in the order the list shows at the moment of the click. Ids that leave the list (deleted,
 * filtered out) are dropped with {@link retainSelection}.
 */

export interface Selection<Id> {
  /** The selected ids, in the order they were selected (empty while the whole set is). */
  readonly ids: ReadonlySet<Id>;
  /** Where a Shift+click range starts: the last item clicked without Shift. */
  readonly anchor: Id | null;
  /** Every item of the list, loaded or not, but those taken out: Ctrl/Cmd+A, "Select all". */
  readonly whole?: Whole<Id> | undefined;
}

/**
 * The whole list as the selection, whatever of it is loaded: the page knows only how many there
 * are, and asks main for their ids when an action needs them (its filters, main's answer).
 */
export interface Whole<Id> {
  /** Items taken out of the whole set (Ctrl/Cmd+click on a selected one). */
  readonly except: ReadonlySet<Id>;
}

/** Which modifier keys were held during a click (a DOM event fits). */
export interface ClickModifiers {
  readonly shiftKey?: boolean;
  readonly ctrlKey?: boolean;
  readonly metaKey?: boolean;
}

/** A key press (a DOM keyboard event fits). */
export interface SelectionKey extends ClickModifiers {
  readonly key: string;
}

/** What a key does to the selection: select everything, clear it, or nothing. */
export type SelectionCommand = 'select-all' | 'clear' | null;

export function emptySelection<Id>(): Selection<Id> {
  return { ids: new Set<Id>(), anchor: null };
}

export function isSelected<Id>(selection: Selection<Id>, id: Id): boolean {
  return selection.whole ? !selection.whole.except.has(id) : selection.ids.has(id);
}

/** How many are selected; `total` is the whole list's length (a whole-set selection needs it). */
export function selectionSize<Id>(selection: Selection<Id>, total = 0): number {
  return selection.whole ? Math.max(0, total - selection.whole.except.size) : selection.ids.size;
}

/** Whether anything is selected (the whole set always is, until cleared). */
export function hasSelection<Id>(selection: Selection<Id>): boolean {
  return selection.whole !== undefined || selection.ids.size > 0;
}

/**
 * The selected ids in the list's order (ids not in `order` come last, as selected). With
 * `placeOf` (each id's place in `order`), a selection of some ids costs their number, not the
 * list's length.
 */
export function selectedInOrder<Id>(
  selection: Selection<Id>,
  order: readonly Id[],
  placeOf?: ReadonlyMap<Id, number>,
): Id[] {
  if (selection.whole) return order.filter((id) => isSelected(selection, id));
  if (placeOf) {
    const ids = [...selection.ids];
    const inList = ids.filter((id) => placeOf.has(id));
    const at = (id: Id): number => placeOf.get(id) ?? 0;
    inList.sort((a, b) => at(a) - at(b));
    return [...inList, ...ids.filter((id) => !placeOf.has(id))];
  }
  const inList = order.filter((id) => selection.ids.has(id));
  const shown = new Set(inList);
  return [...inList, ...[...selection.ids].filter((id) => !shown.has(id))];
}

/** A plain click: only this item, and it becomes the anchor. */
export function selectOnly<Id>(id: Id): Selection<Id> {
  return { ids: new Set([id]), anchor: id };
}

/** Ctrl/Cmd+click: this item in or out, the rest kept; it becomes the anchor. */
export function toggleSelected<Id>(selection: Selection<Id>, id: Id): Selection<Id> {
  if (selection.whole) {
    const except = new Set(selection.whole.except);
    if (except.has(id)) except.delete(id);
    else except.add(id);
    return { ids: new Set(), anchor: id, whole: { except } };
  }
  const ids = new Set(selection.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: id };
}

/** The ids from `from` to `to` in `order`, both included, whichever comes first. */
function rangeOf<Id>(order: readonly Id[], from: Id, to: Id): Id[] | null {
  const start = order.indexOf(from);
  const end = order.indexOf(to);
  if (start < 0 || end < 0) return null;
  return order.slice(Math.min(start, end), Math.max(start, end) + 1);
}

/**
 * Shift+click: the range from the anchor to this item. With `add` (Ctrl/Cmd held too) the range
 * joins the selection; otherwise it replaces it. The anchor stays, so a second Shift+click moves
 * the range's far end. Without an anchor in the list, the item alone is selected and anchors.
 */
export function extendSelection<Id>(
  selection: Selection<Id>,
  order: readonly Id[],
  id: Id,
  add = false,
): Selection<Id> {
  const range = selection.anchor === null ? null : rangeOf(order, selection.anchor, id);
  if (range === null) return add ? toggleSelected(selection, id) : selectOnly(id);
  if (selection.whole && add) {
    // Back into the whole set: the range is no longer taken out of it.
    const except = new Set(selection.whole.except);
    for (const each of range) except.delete(each);
    return { ids: new Set(), anchor: selection.anchor, whole: { except } };
  }
  const ids = new Set(add ? selection.ids : []);
  for (const each of range) ids.add(each);
  return { ids, anchor: selection.anchor };
}

/**
 * Shift with a key that moves the focus (an arrow, Home, End, Page Up, Page Down): the range from
 * the anchor to where the focus went, as a Shift+click there would make it. Without an anchor in
 * the list, the item the focus left (`from`) anchors the range, so the first Shift+Right selects
 * both. `to` null is the list's end, loaded or not (Shift+End before the last page is loaded):
 * the whole set, less what lies before the anchor. With `add` (Ctrl/Cmd too) the range joins
 * the selection.
 */
export function extendTo<Id>(
  selection: Selection<Id>,
  order: readonly Id[],
  move: { readonly from: Id; readonly to: Id | null },
  add = false,
): Selection<Id> {
  const anchor =
    selection.anchor !== null && order.includes(selection.anchor) ? selection.anchor : move.from;
  const anchored = { ...selection, anchor };
  if (move.to !== null) return extendSelection(anchored, order, move.to, add);
  const before = order.slice(0, Math.max(0, order.indexOf(anchor)));
  const except = before.filter((id) => !(add && isSelected(selection, id)));
  return { ids: new Set(), anchor, whole: { except: new Set(except) } };
}

/** A click on an item, by the modifiers held. */
export function clickSelection<Id>(
  selection: Selection<Id>,
  order: readonly Id[],
  id: Id,
  modifiers: ClickModifiers = {},
): Selection<Id> {
  const toggle = modifiers.ctrlKey === true || modifiers.metaKey === true;
  if (modifiers.shiftKey === true) return extendSelection(selection, order, id, toggle);
  if (toggle) return toggleSelected(selection, id);
  return selectOnly(id);
}

/**
 * Ctrl/Cmd+A, "Select all": the whole list, loaded (`order`) or not; the anchor is kept when it
 * is loaded.
 */
export function selectAll<Id>(selection: Selection<Id>, order: readonly Id[]): Selection<Id> {
  const anchor =
    selection.anchor !== null && order.includes(selection.anchor) ? selection.anchor : null;
  return { ids: new Set(), anchor: anchor ?? order[0] ?? null, whole: { except: new Set() } };
}

/** Only the selected ids `keep` accepts (those still in the list); the same value when none left. */
export function retainSelection<Id>(
  selection: Selection<Id>,
  keep: (id: Id) => boolean,
): Selection<Id> {
  // The whole set is the list's, whatever leaves it: nothing to drop.
  if (selection.whole) return selection;
  const ids = [...selection.ids].filter(keep);
  if (ids.length === selection.ids.size) return selection;
  const anchor = selection.anchor !== null && keep(selection.anchor) ? selection.anchor : null;
  return { ids: new Set(ids), anchor };
}

/** What a key press does to the selection: Ctrl/Cmd+A selects all, Escape clears. */
export function selectionCommand(event: SelectionKey): SelectionCommand {
  const command = event.ctrlKey === true || event.metaKey === true;
  if (command && event.shiftKey !== true && event.key.toLowerCase() === 'a') return 'select-all';
  if (event.key === 'Escape') return 'clear';
  return null;
}

/** Applies a key's command; the same value when the key means nothing to the selection. */
export function keySelection<Id>(
  selection: Selection<Id>,
  order: readonly Id[],
  event: SelectionKey,
): Selection<Id> {
  const command = selectionCommand(event);
  if (command === 'select-all') return selectAll(selection, order);
  if (command === 'clear') return hasSelection(selection) ? emptySelection() : selection;
  return selection;
}

/**
 * A set of ids with `ids` put in (`on`) or taken out: a new set, the old one unchanged (the
 * tasks being cancelled, the batch cards opened, the boards folded).
 */
export function toggledIds<Id>(set: ReadonlySet<Id>, ids: readonly Id[], on: boolean): Set<Id> {
  const next = new Set(set);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

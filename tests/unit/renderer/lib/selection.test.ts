import { describe, expect, it } from 'vitest';
import {
  clickSelection,
  emptySelection,
  extendSelection,
  isSelected,
  keySelection,
  retainSelection,
  selectAll,
  selectedInOrder,
  selectionCommand,
  selectionSize,
  selectOnly,
  toggleSelected,
  type Selection,
} from '../../../../renderer/lib/selection';

const ORDER = ['a', 'b', 'c', 'd', 'e', 'f'];

function ids<Id>(selection: Selection<Id>): Id[] {
  return [...selection.ids];
}

describe('clicks', () => {
  it('a plain click selects only that item and anchors there', () => {
    const before = toggleSelected(toggleSelected(emptySelection<string>(), 'a'), 'c');
    const after = clickSelection(before, ORDER, 'e');
    expect(ids(after)).toEqual(['e']);
    expect(after.anchor).toBe('e');
  });

  it('Ctrl or Cmd toggles one item and keeps the rest', () => {
    let selection = clickSelection(emptySelection<string>(), ORDER, 'b');
    selection = clickSelection(selection, ORDER, 'd', { ctrlKey: true });
    selection = clickSelection(selection, ORDER, 'f', { metaKey: true });
    expect(selectedInOrder(selection, ORDER)).toEqual(['b', 'd', 'f']);
    selection = clickSelection(selection, ORDER, 'd', { ctrlKey: true });
    expect(selectedInOrder(selection, ORDER)).toEqual(['b', 'f']);
    expect(selection.anchor).toBe('d');
  });

  it('Shift selects the range from the anchor, in either direction, replacing the rest', () => {
    let selection = clickSelection(emptySelection<string>(), ORDER, 'c');
    selection = clickSelection(selection, ORDER, 'e', { shiftKey: true });
    expect(selectedInOrder(selection, ORDER)).toEqual(['c', 'd', 'e']);
    // A second Shift+click moves the far end; the anchor stays at c.
    selection = clickSelection(selection, ORDER, 'a', { shiftKey: true });
    expect(selectedInOrder(selection, ORDER)).toEqual(['a', 'b', 'c']);
    expect(selection.anchor).toBe('c');
  });

  it('Ctrl+Shift adds the range to what is selected', () => {
    let selection = clickSelection(emptySelection<string>(), ORDER, 'a');
    selection = clickSelection(selection, ORDER, 'd', { ctrlKey: true });
    selection = clickSelection(selection, ORDER, 'f', { ctrlKey: true, shiftKey: true });
    expect(selectedInOrder(selection, ORDER)).toEqual(['a', 'd', 'e', 'f']);
  });

  it('Shift without an anchor in the list selects the item alone', () => {
    expect(ids(extendSelection(emptySelection<string>(), ORDER, 'c'))).toEqual(['c']);
    const gone = selectOnly('zzz');
    const after = extendSelection(gone, ORDER, 'b');
    expect(ids(after)).toEqual(['b']);
    expect(after.anchor).toBe('b');
  });

  it('works over numbers as well as strings', () => {
    const selection = clickSelection(selectOnly(3), [1, 2, 3, 4, 5], 5, { shiftKey: true });
    expect(selectedInOrder(selection, [1, 2, 3, 4, 5])).toEqual([3, 4, 5]);
    expect(isSelected(selection, 4)).toBe(true);
    expect(isSelected(selection, 2)).toBe(false);
  });
});

describe('keys', () => {
  it.each([
    [{ key: 'a', ctrlKey: true }, 'select-all'],
    [{ key: 'A', metaKey: true }, 'select-all'],
    [{ key: 'a' }, null],
    [{ key: 'a', ctrlKey: true, shiftKey: true }, null],
    [{ key: 'Escape' }, 'clear'],
    [{ key: 'Enter' }, null],
  ] as const)('%o means %s', (event, command) => {
    expect(selectionCommand(event)).toBe(command);
  });

  it('Ctrl/Cmd+A selects the whole list, loaded or not; Escape clears; other keys change nothing', () => {
    const start = selectOnly('c');
    const all = keySelection(start, ORDER, { key: 'a', ctrlKey: true });
    // 300 in the list, ORDER.length of them loaded: all 300 are selected.
    expect(selectionSize(all, 300)).toBe(300);
    expect(selectedInOrder(all, ORDER)).toEqual(ORDER);
    expect(isSelected(all, 'not-loaded-yet')).toBe(true);
    expect(all.anchor).toBe('c');
    const same = keySelection(all, ORDER, { key: 'x' });
    expect(same).toBe(all);
    const cleared = keySelection(all, ORDER, { key: 'Escape' });
    expect(selectionSize(cleared)).toBe(0);
    expect(cleared.anchor).toBeNull();
    expect(keySelection(cleared, ORDER, { key: 'Escape' })).toBe(cleared);
  });

  it('select all on an empty list selects nothing', () => {
    const selection = selectAll(emptySelection<string>(), []);
    expect(selectionSize(selection, 0)).toBe(0);
    expect(selection.anchor).toBeNull();
  });

  it('the whole set: Ctrl+click takes one out and puts it back, a plain click leaves it', () => {
    const all = selectAll(emptySelection<string>(), ORDER);
    const less = clickSelection(all, ORDER, 'b', { ctrlKey: true });
    expect(isSelected(less, 'b')).toBe(false);
    expect(selectionSize(less, 300)).toBe(299);
    expect(selectedInOrder(less, ORDER)).toEqual(ORDER.filter((id) => id !== 'b'));
    // Items that leave the list do not shrink the whole set: main counts it again.
    expect(retainSelection(less, (id) => id !== 'a')).toBe(less);
    const back = clickSelection(less, ORDER, 'b', { ctrlKey: true });
    expect(selectionSize(back, 300)).toBe(300);
    const rangeBack = clickSelection(
      clickSelection(less, ORDER, 'a', { ctrlKey: true }),
      ORDER,
      'c',
      { ctrlKey: true, shiftKey: true },
    );
    expect(selectionSize(rangeBack, 300)).toBe(300);
    const one = clickSelection(less, ORDER, 'd');
    expect(one.whole).toBeUndefined();
    expect(ids(one)).toEqual(['d']);
  });
});

describe('paging and removal', () => {
  it('survives a next page being appended, and a range may reach into it', () => {
    const firstPage = ['a', 'b', 'c'];
    let selection = clickSelection(emptySelection<string>(), firstPage, 'b');
    selection = clickSelection(selection, firstPage, 'c', { ctrlKey: true });
    const bothPages = [...firstPage, 'd', 'e', 'f'];
    expect(selectedInOrder(selection, bothPages)).toEqual(['b', 'c']);
    selection = clickSelection(selection, bothPages, 'e', { shiftKey: true });
    expect(selectedInOrder(selection, bothPages)).toEqual(['c', 'd', 'e']);
  });

  it('keeps ids not shown (yet) after the shown ones', () => {
    const selection = toggleSelected(toggleSelected(emptySelection<string>(), 'q'), 'b');
    expect(selectedInOrder(selection, ORDER)).toEqual(['b', 'q']);
  });

  it('retainSelection drops ids that left the list, and the anchor with them', () => {
    const selection = clickSelection(selectOnly('b'), ORDER, 'd', { shiftKey: true });
    const kept = retainSelection(selection, (id) => id !== 'b' && id !== 'c');
    expect(ids(kept)).toEqual(['d']);
    expect(kept.anchor).toBeNull();
    expect(retainSelection(kept, () => true)).toBe(kept);
  });
});

import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { ApiError } from '../../../../renderer/lib/api';
import {
  appendNew,
  createPagedList,
  type ListPage,
  type PagedFields,
  type PagedList,
} from '../../../../renderer/store/paged-list';

interface Row {
  readonly id: string;
}
type TestState = PagedFields<'rows', Row> & { readonly pages: number };

/** A request the test answers (or fails) when it chooses. */
interface Pending {
  readonly answer: (page: ListPage<Row>) => void;
  readonly fail: (error: unknown) => void;
}

function rows(...ids: string[]): Row[] {
  return ids.map((id) => ({ id }));
}

/** A store with one paged list, and a fetch that parks every request until the test settles it. */
function makeStore() {
  const pending: Pending[] = [];
  const fetch = (): Promise<ListPage<Row>> =>
    new Promise((answer, fail) => pending.push({ answer, fail }));
  let list!: PagedList<'rows', TestState, Row>;
  const store = create<TestState>()((set, get) => {
    list = createPagedList<'rows', TestState, Row>({
      prefix: 'rows',
      set,
      get,
      keyOf: (row) => row.id,
      failure: () => 'The rows could not be read.',
    });
    return { ...list.initial, pages: 0 };
  });
  const countPages = () => ({ pages: store.getState().pages + 1 });
  return { store, list, pending, fetch, countPages };
}

describe('a paged list', () => {
  it('starts idle and holds a first page under its prefix', async () => {
    const { store, list, pending, fetch } = makeStore();
    expect(store.getState()).toMatchObject({ rowsStatus: 'idle', rowsLoaded: false });
    const loading = list.replace(fetch);
    expect(store.getState()).toMatchObject({ rowsStatus: 'loading', rowsLoaded: false });
    pending[0]!.answer({ items: rows('a', 'b'), nextCursor: 'b' });
    expect(await loading).toBeTypeOf('function');
    expect(store.getState()).toMatchObject({
      rowsItems: rows('a', 'b'),
      rowsNextCursor: 'b',
      rowsStatus: 'ready',
      rowsLoaded: true,
      rowsLoadingMore: false,
      rowsError: null,
    });
  });

  it('drops the answer to a first page that a later one replaced', async () => {
    const { store, list, pending, fetch } = makeStore();
    const old = list.replace(fetch);
    const fresh = list.replace(fetch);
    pending[1]!.answer({ items: rows('new'), nextCursor: null });
    await fresh;
    pending[0]!.answer({ items: rows('old'), nextCursor: 'old' });
    expect(await old).toBeNull();
    expect(store.getState()).toMatchObject({ rowsItems: rows('new'), rowsNextCursor: null });
  });

  it('drops a next page that answers after the list was replaced, and its failure too', async () => {
    const { store, list, pending, fetch } = makeStore();
    const first = list.replace(fetch);
    pending[0]!.answer({ items: rows('a'), nextCursor: 'a' });
    await first;
    const more = list.extend(fetch);
    expect(store.getState().rowsLoadingMore).toBe(true);
    const replaced = list.replace(fetch);
    expect(store.getState().rowsLoadingMore).toBe(false);
    pending[1]!.fail(new Error('late'));
    await more;
    expect(store.getState()).toMatchObject({ rowsError: null, rowsStatus: 'loading' });
    pending[2]!.answer({ items: rows('b'), nextCursor: null });
    await replaced;
    expect(store.getState().rowsItems).toEqual(rows('b'));
  });

  it('appends a next page without repeating items, and asks for one page at a time', async () => {
    const { store, list, pending, fetch, countPages } = makeStore();
    const first = list.replace(fetch);
    pending[0]!.answer({ items: rows('a', 'b'), nextCursor: 'b' });
    await first;
    const cursors: string[] = [];
    const more = list.extend((cursor) => {
      cursors.push(cursor);
      return fetch();
    }, countPages);
    void list.extend(fetch);
    expect(pending).toHaveLength(2);
    pending[1]!.answer({ items: rows('b', 'c'), nextCursor: null });
    await more;
    expect(cursors).toEqual(['b']);
    expect(store.getState()).toMatchObject({
      rowsItems: rows('a', 'b', 'c'),
      rowsNextCursor: null,
      rowsLoadingMore: false,
      pages: 1,
    });
    await list.extend(fetch);
    expect(pending).toHaveLength(2);
  });

  it('keeps an error until the next success, with a sentence when the failure has none', async () => {
    const { store, list, pending, fetch } = makeStore();
    const first = list.replace(fetch);
    pending[0]!.fail(new Error('EIO'));
    expect(await first).toBeNull();
    expect(store.getState()).toMatchObject({
      rowsStatus: 'error',
      rowsLoaded: true,
      rowsError: { message: 'The rows could not be read.', detail: 'EIO' },
    });
    const again = list.replace(fetch);
    pending[1]!.answer({ items: rows('a'), nextCursor: 'a' });
    await again;
    const more = list.extend(fetch);
    pending[2]!.fail(new ApiError('failed', 'Busy.'));
    await more;
    expect(store.getState()).toMatchObject({
      rowsStatus: 'ready',
      rowsLoadingMore: false,
      rowsError: { message: 'Busy.' },
      rowsItems: rows('a'),
    });
    const retry = list.extend(fetch);
    expect(store.getState().rowsError).toEqual({ message: 'Busy.' });
    pending[3]!.answer({ items: rows('b'), nextCursor: null });
    await retry;
    expect(store.getState().rowsError).toBeNull();
  });

  it('loads no next page before a first page is in', async () => {
    const { store, list, pending, fetch } = makeStore();
    store.setState({ rowsNextCursor: 'x' });
    await list.extend(fetch);
    void list.replace(fetch);
    await list.extend(fetch);
    expect(pending).toHaveLength(1);
  });

  it('keeps its own request token: two stores never drop each other’s answers', async () => {
    const one = makeStore();
    const two = makeStore();
    const first = one.list.replace(one.fetch);
    const second = two.list.replace(two.fetch);
    one.pending[0]!.answer({ items: rows('one'), nextCursor: null });
    two.pending[0]!.answer({ items: rows('two'), nextCursor: null });
    expect(await first).not.toBeNull();
    expect(await second).not.toBeNull();
    expect(one.store.getState().rowsItems).toEqual(rows('one'));
    expect(two.store.getState().rowsItems).toEqual(rows('two'));
  });

  it('dismisses an error, and makes a request under way stale on drop()', async () => {
    const { store, list, pending, fetch } = makeStore();
    const first = list.replace(fetch);
    pending[0]!.answer({ items: rows('a'), nextCursor: 'a' });
    const stillCurrent = (await first)!;
    const more = list.extend(fetch);
    list.drop();
    expect(stillCurrent()).toBe(false);
    pending[1]!.answer({ items: rows('b'), nextCursor: null });
    await more;
    expect(store.getState().rowsItems).toEqual(rows('a'));
    store.setState({ rowsError: { message: 'x' } });
    list.dismissError();
    expect(store.getState().rowsError).toBeNull();
  });
});

describe('appendNew', () => {
  it('appends a page without repeating items inserted meanwhile', () => {
    expect(appendNew(rows('a', 'b'), rows('b', 'c'), (row) => row.id)).toEqual(rows('a', 'b', 'c'));
  });
});

/**
 * The one way the store's paged lists (the task history, the gallery) load their pages, drop
 * late answers, and hold their loading and error state. A slice holds a list as six fields named
 * with its prefix (`tasksItems`, `galleryStatus`, …) and drives them through
 * {@link createPagedList}. Each list keeps its own request token, so two lists, or two stores
 * in one test, never drop each other's answers.
 */
import { problemOf, type Problem } from '../lib/api';

/** The latest first-page load: `idle` before the first one. */
export type ListStatus = 'idle' | 'loading' | 'ready' | 'error';

/** What a list request answers. */
export interface ListPage<Item> {
  readonly items: readonly Item[];
  readonly nextCursor: string | null;
}

export interface ListFields<Item> {
  /** Loaded items, in the list's order. */
  items: Item[];
  /** Where the next page starts; null when everything is loaded. */
  nextCursor: string | null;
  status: ListStatus;
  /** A first page has answered (rows or a failure) at least once: there is something to show. */
  loaded: boolean;
  /** A next page is on its way. */
  loadingMore: boolean;
  /** Why the last load failed; kept until a load succeeds or the user dismisses it. */
  error: Problem | null;
}

type Field = keyof ListFields<unknown>;

/**
 * A list's fields as a slice holds them: `items` of prefix `tasks` is `tasksItems`, or with
 * `Items` named `Ids`, `tasksIds` (a list of ids over the records table, records-slice.ts).
 */
export type PagedFields<P extends string, Item, Items extends string = 'Items'> = {
  [K in Field as K extends 'items' ? `${P}${Items}` : `${P}${Capitalize<K>}`]: ListFields<Item>[K];
};

const EMPTY_LIST: ListFields<never> = {
  items: [],
  nextCursor: null,
  status: 'idle',
  loaded: false,
  loadingMore: false,
  error: null,
};

/** True while no later request has replaced the list the request was made for. */
export type StillCurrent = () => boolean;

/** Fields a slice stores beside a page: from the list as it will be, and the state before. */
export type PageExtras<S, Item, Page> = (
  next: ListFields<Item>,
  state: S,
  page: Page,
) => Partial<S>;

type Setter<S> = (patch: Partial<S> | ((state: S) => Partial<S>)) => void;

export interface PagedListOptions<P extends string, S, Item, Items extends string = 'Items'> {
  readonly prefix: P;
  /** The name of the items' field after the prefix (default `Items`). */
  readonly itemsName?: Items;
  readonly set: Setter<S>;
  readonly get: () => S;
  /** An item's identity, so a page never adds an item already loaded. */
  readonly keyOf: (item: Item) => string;
  /** The sentence for a failure that brings none (otherwise a generic one). */
  readonly failure?: () => string;
  /**
   * The list's own order of what is loaded, applied as each page lands (the task history puts a
   * batch's tasks in the order they were made: batch-order.ts); default, the pages' order.
   */
  readonly arrange?: (items: Item[], page: ListPage<Item>) => Item[];
}

export interface PagedList<P extends string, S, Item, Items extends string = 'Items'> {
  /** The list's fields before any load, for the slice's initial state. */
  readonly initial: PagedFields<P, Item, Items>;
  /** The list's fields in `state` (the store's current state by default). */
  read(state?: S): ListFields<Item>;
  /** The list's fields as a patch of the state. */
  patch(fields: Partial<ListFields<Item>>): Partial<S>;
  /**
   * Loads a first page that replaces the list; answers to every earlier request become stale.
   * Resolves a check for follow-up requests once the page is in, or null when it failed or a
   * later request replaced it.
   */
  replace<Page extends ListPage<Item>>(
    fetch: () => Promise<Page>,
    extras?: PageExtras<S, Item, Page>,
  ): Promise<StillCurrent | null>;
  /**
   * Loads the page after the cursor and appends the items not yet loaded. Does nothing before a
   * first page is in, while a page is on its way, or when everything is loaded.
   */
  extend<Page extends ListPage<Item>>(
    fetch: (cursor: string) => Promise<Page>,
    extras?: PageExtras<S, Item, Page>,
  ): Promise<void>;
  /** A check for a request that adds to the list as it is now (it leaves the token alone). */
  current(): StillCurrent;
  /** Makes every request under way stale: the list was replaced some other way. */
  drop(): void;
  /** The failure to keep in `error`, from whatever a request threw. */
  failure(error: unknown): Problem;
  /** Forgets the last failure. */
  dismissError(): void;
}

const FIELDS = Object.keys(EMPTY_LIST) as Field[];

/** The items of `page` not already in `items`, appended. */
export function appendNew<Item>(
  items: readonly Item[],
  page: readonly Item[],
  keyOf: (item: Item) => string,
): Item[] {
  const known = new Set(items.map(keyOf));
  return [...items, ...page.filter((item) => !known.has(keyOf(item)))];
}

/** A field's name in the slice: the prefix and the field, or for the items their own name. */
function fieldName(prefix: string, itemsName: string | undefined, field: Field): string {
  if (field === 'items' && itemsName !== undefined) return `${prefix}${itemsName}`;
  return `${prefix}${field[0]?.toUpperCase()}${field.slice(1)}`;
}

export function createPagedList<P extends string, S, Item, Items extends string = 'Items'>(
  options: PagedListOptions<P, S, Item, Items>,
): PagedList<P, S, Item, Items> {
  const { prefix, set, get, keyOf, arrange = (items: Item[]) => items } = options;
  /** This list's request token: bumped by every request that replaces the list. */
  let token = 0;
  const name = (field: Field): string => fieldName(prefix, options.itemsName, field);
  const read = (state: S = get()): ListFields<Item> =>
    Object.fromEntries(
      FIELDS.map((field) => [field, (state as Record<string, unknown>)[name(field)]]),
    ) as unknown as ListFields<Item>;
  const patch = (fields: Partial<ListFields<Item>>): Partial<S> =>
    Object.fromEntries(
      Object.entries(fields).map(([field, value]) => [name(field as Field), value]),
    ) as Partial<S>;
  const current = (): StillCurrent => {
    const mine = token;
    return () => mine === token;
  };
  const failure = (error: unknown): Problem => problemOf(error, options.failure);

  /** Stores a page's answer, with the slice's own fields computed from it. */
  const land = <Page extends ListPage<Item>>(
    page: Page,
    merge: (before: ListFields<Item>) => Partial<ListFields<Item>>,
    extras: PageExtras<S, Item, Page> | undefined,
  ): void =>
    set((state) => {
      const before = read(state);
      const next: ListFields<Item> = {
        ...before,
        ...merge(before),
        loadingMore: false,
        error: null,
      };
      return { ...patch(next), ...extras?.(next, state, page) };
    });

  return {
    initial: patch(EMPTY_LIST) as unknown as PagedFields<P, Item, Items>,
    read,
    patch,
    current,
    failure,
    drop() {
      token += 1;
    },
    dismissError() {
      set(patch({ error: null }));
    },

    async replace(fetch, extras) {
      token += 1;
      const stillCurrent = current();
      set(patch({ status: 'loading', loadingMore: false, error: null }));
      try {
        const page = await fetch();
        if (!stillCurrent()) return null;
        land(
          page,
          () => ({
            items: arrange([...page.items], page),
            nextCursor: page.nextCursor,
            status: 'ready',
            loaded: true,
          }),
          extras,
        );
        return stillCurrent;
      } catch (error) {
        if (!stillCurrent()) return null;
        set(patch({ status: 'error', loaded: true, loadingMore: false, error: failure(error) }));
        return null;
      }
    },

    async extend(fetch, extras) {
      const { nextCursor, loadingMore, status } = read();
      if (nextCursor === null || loadingMore || status !== 'ready') return;
      const stillCurrent = current();
      set(patch({ loadingMore: true }));
      try {
        const page = await fetch(nextCursor);
        if (!stillCurrent()) return;
        land(
          page,
          (before) => ({
            items: arrange(appendNew(before.items, page.items, keyOf), page),
            nextCursor: page.nextCursor,
          }),
          extras,
        );
      } catch (error) {
        if (!stillCurrent()) return;
        set(patch({ loadingMore: false, error: failure(error) }));
      }
    },
  };
}

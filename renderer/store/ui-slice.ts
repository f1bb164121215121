/** The shell's state: which screen is shown, the banners and focus requests. */
import type { StateCreator } from 'zustand';
import type { ProviderId } from '../../shared/domain/providers';
import type { AppInfo, AppNotice } from '../../shared/ipc/contract';
import { isDismissed, setDismissed } from '../lib/dismissals';
import type { AppState } from './app-state';

export type View = 'tasks' | 'gallery' | 'costs' | 'settings';
/**
 * Fields a menu command or a banner can ask to focus (`costs`: Settings › Costs, prices and caps;
 * `price`: the amount of the price `costsAskPrice` set the form to; `key:<service>`: that service's key).
 */
export type FocusTarget = 'prompt' | 'search' | 'baseUrl' | 'costs' | 'price' | `key:${ProviderId}`;
/** The feeds whose scroll offset outlives a redraw of the window (use-kept-feed-top.ts). */
export type KeptFeed = 'tasks' | 'gallery';
export interface KeptFeedTop {
  readonly top: number;
  /** The language's tag. */
  readonly language: string;
}

export interface UiSlice {
  view: View;
  setView(view: View): void;
  /** The network is away (tasks resume on their own when it is back). */
  offline: boolean;
  /**
   * The origins of the services main's calls could not reach lately while online (no such host,
   * connection refused, a TLS failure), until one answers again (core/service/service-reach.ts).
   */
  unreachable: readonly string[];
  /** Tasks go to the built-in demo service (no key or no base URL). */
  demo: boolean;
  demoBannerDismissed: boolean;
  appInfo: AppInfo | null;
  /** Notices main handed out (each once), shown until dismissed. */
  notices: AppNotice[];
  uiAddNotice(notice: AppNotice): void;
  dismissNotice(notice: AppNotice): void;
  /** The latest request to focus a field; `seq` makes a repeated request distinct. */
  focusRequest: { readonly target: FocusTarget; readonly seq: number } | null;
  requestFocus(target: FocusTarget): void;
  /** The field took the focus: forget the request (if no newer one came). */
  consumeFocusRequest(seq: number): void;
  uiApplyInfo(info: AppInfo): void;
  /**
   * Where each feed was scrolled to (its feed offset, lib/feed-scroll.ts) when it was last taken
   * down, and the language it was drawn in: drawn again in another language (the window drawn
   * anew), it goes back there.
   */
  feedTops: Readonly<Partial<Record<KeptFeed, KeptFeedTop>>>;
  uiKeepFeedTop(feed: KeptFeed, top: KeptFeedTop): void;
  uiSetOffline(offline: boolean): void;
  uiSetUnreachable(origins: readonly string[]): void;
  uiSetDemo(demo: boolean): void;
  dismissDemoBanner(): void;
}

export const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set, get) => ({
  view: 'tasks',
  offline: false,
  unreachable: [],
  demo: false,
  demoBannerDismissed: false,
  appInfo: null,
  notices: [],
  focusRequest: null,
  feedTops: {},

  setView(view) {
    set({ view });
  },
  requestFocus(target) {
    set((state) => ({ focusRequest: { target, seq: (state.focusRequest?.seq ?? 0) + 1 } }));
  },
  consumeFocusRequest(seq) {
    set((state) => (state.focusRequest?.seq === seq ? { focusRequest: null } : {}));
  },
  uiApplyInfo(info) {
    const first = get().appInfo === null;
    set((state) => ({
      appInfo: info,
      offline: !info.online,
      unreachable: info.unreachable ?? [],
      notices: [...new Set([...state.notices, ...(info.notices ?? [])])],
    }));
    // At start the demo is where the app was, not a change: a banner hidden before stays hidden.
    if (first) set({ demo: info.demo, demoBannerDismissed: isDismissed('demoBanner') });
    else get().uiSetDemo(info.demo);
  },
  uiAddNotice(notice) {
    set((state) => (state.notices.includes(notice) ? {} : { notices: [...state.notices, notice] }));
  },
  dismissNotice(notice) {
    set((state) => ({ notices: state.notices.filter((shown) => shown !== notice) }));
  },
  uiKeepFeedTop(feed, top) {
    set((state) => ({ feedTops: { ...state.feedTops, [feed]: top } }));
  },
  uiSetOffline(offline) {
    set({ offline });
  },
  uiSetUnreachable(origins) {
    set({ unreachable: origins });
  },
  uiSetDemo(demo) {
    // Going back to the demo (the key was cleared) shows the banner again.
    const back = demo && !get().demo;
    if (back) setDismissed('demoBanner', false);
    set((state) => ({
      demo,
      demoBannerDismissed: back ? false : state.demoBannerDismissed,
    }));
  },
  dismissDemoBanner() {
    setDismissed('demoBanner', true);
    set({ demoBannerDismissed: true });
  },
});

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends UiSlice {}
}

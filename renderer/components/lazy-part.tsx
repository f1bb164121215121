/**
 * A part of the window loaded when it is first shown: its code is a dynamic import, a chunk of its
 * own outside the entry bundle the first screen waits for (React.lazy). Until the chunk arrives a
 * status says what is loading; a chunk that fails to load throws to the nearest error boundary,
 * whose "Try again" loads it again.
 *
 * Once loaded (or preloaded when the window is idle, {@link LazyPart.preload}), the part renders
 * at once, without showing the loading state: its import is handed to React.lazy as a settled
 * thenable, which React reads synchronously.
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { t, type MessageKey } from '../i18n';
import { Spinner } from './spinner';

interface LazyPart<P extends object> {
  /** The part: its loading state until the chunk is there, then the component. */
  readonly Part: ComponentType<P>;
  /** Loads the chunk ahead of the first showing; never rejects (a failure is shown when used). */
  readonly preload: () => Promise<void>;
}

type Loaded<P> = { default: ComponentType<P> };

/** A thenable React.lazy reads as already fulfilled (it calls `then` and sees the value at once). */
function settled<P>(component: ComponentType<P>): Promise<Loaded<P>> {
  const thenable = {
    then(onFulfilled: (value: Loaded<P>) => unknown) {
      onFulfilled({ default: component });
      return thenable;
    },
  };
  return thenable as unknown as Promise<Loaded<P>>;
}

/** The loading state of a part: a polite status a screen reader announces, and a spinner. */
function PartLoading({ label }: { label: string }) {
  return (
    <div className="lazy-part" role="status" aria-live="polite">
      <Spinner size="large" label={label} />
    </div>
  );
}

/**
 * The part `load` imports; `loadingKey` names it while it loads ("Loading settings…").
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  loadingKey: MessageKey,
): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchPart = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // The next showing tries again, with a new lazy component (React keeps a failure).
        loading = null;
        current = made();
        throw error;
      },
    );
    return loading;
  };
  const made = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      loaded ? settled(loaded) : fetchPart().then((component) => ({ default: component })),
    );
  let current = made();
  function Part(props: P) {
    const Shown = current;
    return (
      <Suspense fallback={<PartLoading label={t(loadingKey)} />}>
        <Shown {...props} />
      </Suspense>
    );
  }
  return {
    Part,
    preload: () =>
      fetchPart().then(
        () => undefined,
        () => undefined,
      ),
  };
}

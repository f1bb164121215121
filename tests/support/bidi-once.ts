/**
 * Preloaded (`--import`) into the renderer projects' vitest workers: jsdom's selector engine
 * (@asamuzakjp/dom-selector 7, the latest 7.x; 10.0.6 still does it) calls bidi-js's factory at
 * every directionality lookup, and each call builds bidi's Unicode tables anew. jsdom's own
 * stylesheet has `:dir()` rules, so every getComputedStyle (accessible names, axe, role queries)
 * over the app's `dir="auto"` elements paid for it, walking up to the root: 3.7 ms a lookup
 * instead of 0.4, and 4.7 s of one worker's CPU in a11y.test.tsx's profile.
 *
 * A resolve hook hands the selector engine one factory whose tables are built once per thread.
 * The factory's functions keep no state between calls (bidi-js makes one per caller only so that
 * a caller can keep it apart), so the same answers come back: what jsdom computes is unchanged.
 */
import { createRequire, registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

/** Counts the tables built on this thread (tests/unit/support/bidi-once.test.ts reads it). */
export const BIDI_BUILT = Symbol.for('pictor.tests.bidiTablesBuilt');

const selectorRequire = createRequire(
  createRequire(import.meta.url).resolve('@asamuzakjp/dom-selector/package.json'),
);
const bidiUrl = pathToFileURL(selectorRequire.resolve('bidi-js')).href;
const built = `globalThis[Symbol.for(${JSON.stringify(BIDI_BUILT.description)})]`;
const once = `data:text/javascript,${encodeURIComponent(
  `import make from ${JSON.stringify(bidiUrl)};let made;` +
    `export default () => (made ??= (${built} = (${built} ?? 0) + 1, make()));`,
)}`;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'bidi-js' && context.parentURL?.includes('/@asamuzakjp/dom-selector/')) {
      return { url: once, shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});

/**
 * The whole renderer state: one store made of slices (see store/app-store.ts). Each slice
 * declares its own part of it in its own file (`declare module './app-state'`), so this file
 * imports no slice: a slice reaches the others' parts through the store, never itself through
 * an import circle (tests/unit/lint/front-circles.test.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the slices fill it in.
export interface AppState {}

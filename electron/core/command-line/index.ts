/**
 * The command-line module (electron/core/command-line/), its face: the one file other modules and
 * the fronts import from it. The app's own command line, read once.
 */
export { UsageError, parseCommandLine } from './command-line';
export {
  lookedUp,
  looksLikeKey,
  noSuchTask,
  quotedOr,
  quotedWord,
  shownPath,
  unknownCommandMessage,
} from './user-words';

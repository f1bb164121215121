/**
 * The command-line module's face (electron/core/command-line/): its doors are the exports below,
 * the only names other modules and the fronts import from it. The app's own command line, read
 * once.
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

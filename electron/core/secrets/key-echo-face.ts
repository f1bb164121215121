/**
 * The secrets module's second face (declared in eslint.config.js's CORE_FACES): the key's echo
 * finder alone, which the command line loads at start to scrub its output, without the key text
 * checks (and the message catalogue they bring) that the module's index.ts also passes on.
 */
export { KEY_RUN, scrubKey } from './key-echo';

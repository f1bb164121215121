/**
 * Testing-library's element errors without the page printed while `waitFor` and `findBy…` poll.
 * Its default `getElementError` prints the whole DOM (pretty-format over every node, then cut to
 * 7,000 characters) into the error of every query that does not match yet: a `findBy…` polls at
 * each change of the page and every 50 ms, and the page here is the whole app. The library marks
 * those polls itself (`_disableExpensiveErrorDiagnostics`, which its role queries already read to
 * skip listing every role), and `waitFor` prints the page into the error it rejects with when its
 * deadline passes (`onTimeout`); a query outside `waitFor` prints it at once, as before. So a test
 * that fails says what it did before, with the page printed once instead of twice; only the polls
 * that come to nothing stop paying for a print no one reads (a Settings test: 265 ms of its 4.2 s
 * of CPU).
 */
import { getConfig, type Config } from '@testing-library/react';

/** The polls' flag: not in the library's types, set by its `waitFor` around each call. */
interface PollingConfig extends Config {
  readonly _disableExpensiveErrorDiagnostics?: boolean;
}

/**
 * The library's own `getElementError`, as it was when this module was first evaluated: once per
 * thread where files share their modules, so not the quiet one below when setup runs again.
 */
const printed = getConfig().getElementError;

/** `getElementError` that leaves the page out of an error made while `waitFor` polls. */
export const quietWhilePolling: Config['getElementError'] = (message, container) => {
  // A list of matches (message null) is made of each element's own print: small, kept.
  const polling = (getConfig() as PollingConfig)._disableExpensiveErrorDiagnostics === true;
  if (!polling || message === null) return printed(message, container);
  const error = new Error(message);
  error.name = 'TestingLibraryElementError';
  return error;
};

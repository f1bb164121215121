/**
 * Error sentences of "Test connection" and of the check Save makes, written for Settings (merged
 * into shared/i18n/main-messages.ts after the other areas): one sentence for each thing that can
 * happen, naming the address or the host, never a task (core/service/key-probe-report.ts). Keys
 * `error.service.test*`, like the rest of the test's sentences in errors/service.ts; ICU
 * MessageFormat, typographic apostrophes (’). `{address}` is a whole base URL, `{host}` a host
 * (with its port and path when it has them), `{status}` an HTTP status as a string, `{target}`
 * an origin or `none`.
 */
export const serviceTestErrors = {
  'error.service.testDemoNoKey':
    'The built-in demo service answers. It needs no key: its pictures are made on this computer and cost nothing.',
  'error.service.testNotThisService':
    'No image service of this kind answers at {address}. Something answered there, but not the way this service does. Check the address: it is the API address from the service’s documentation.',
  'error.service.testWebPage':
    'No image service of this kind answers at {address}: a web page answers there. Check the address: it is the API address from the service’s documentation, not its website.',
  'error.service.testRedirected':
    '{address} sends requests on to {target, select, none {another address} other {{target}}}. Pictor sends the key only to the address it was entered for, so it did not follow. If the service has moved, enter its new address.',
  'error.service.testPortClosed':
    'Nothing answers at {address}: the connection was refused. Check the address and its port, and that the service is running.',
  'error.service.testNoSuchHost':
    'The name {host} could not be found. Check the address for typing mistakes, and your internet connection.',
  'error.service.testInsecure':
    'Pictor could not make a secure connection to {host}: its certificate is not valid or not trusted, so the key was not sent. Check the address, and this computer’s date and time.',
  'error.service.testTimedOut':
    '{host} did not answer in time, so the key was not checked. Check the address, or try again later.',
  'error.service.testNoCredits':
    'The service at {host} knows this key, but says the account has no credits left ({status}). Add credits in the service’s billing console before you generate.',
  'error.service.testBusy':
    'The service at {host} is busy ({status}) and did not check the key. Try again in a little while.',
  'error.service.testServerTrouble':
    'The service at {host} has a problem of its own ({status}) and did not check the key. Try again later.',
} as const;

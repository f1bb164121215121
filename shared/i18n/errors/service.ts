/**
 * Error sentences of the service area (merged into shared/i18n/main-messages.ts): keys
 * `error.service.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 *
 * `{status}`, `{address}`, `{host}` and the like are identifiers passed as strings (never
 * formatted as numbers); `{reason}` is the service's own words, cleaned and with the key scrubbed.
 * A wait (`{unit}` `seconds`/`minutes`, `{amount}`) and a timeout (`{unit}` `ms`/`seconds`)
 * are numbers.
 */
export const serviceErrors = {
  // A non-200 answer (core/service/status-errors.ts).
  'error.service.authRefusedSubmit':
    'The service refused the API key ({status}). Check the key in Settings.',
  'error.service.authRefusedQuery':
    'The service refused the API key ({status}). Check the key in Settings; a task can only be read with a key of the account that created it.',
  'error.service.noCredits':
    'The account has run out of credits (402). Add credits in the service’s billing console, then try again.',
  'error.service.taskUnknown':
    'The service does not know this task (404). It may have expired, or it was created with another account.',
  'error.service.noGenerationHere':
    'The service has no image generation at this address (404). Check the service URL in Settings.',
  'error.service.gaveUpWaitingSubmit':
    'The service gave up waiting for the request (408). Try again in a moment.',
  'error.service.gaveUpWaitingQuery':
    'The service gave up waiting for the request (408). Pictor asks again later.',
  'error.service.busySubmit': 'The service is busy (429). Try again then.',
  'error.service.busyQuery':
    'The service is busy (429). Pictor keeps the task and asks again then.',
  'error.service.busyWaitSubmit':
    'The service is busy (429) and asked Pictor to wait about {unit, select, minutes {{amount, plural, one {# minute} other {# minutes}}} other {{amount, plural, one {# second} other {# seconds}}}}. Try again then.',
  'error.service.busyWaitQuery':
    'The service is busy (429) and asked Pictor to wait about {unit, select, minutes {{amount, plural, one {# minute} other {# minutes}}} other {{amount, plural, one {# second} other {# seconds}}}}. Pictor keeps the task and asks again then.',
  'error.service.serverTroubleSubmit':
    'The service had a problem on its side ({status}). This is usually temporary; try again in a few minutes.',
  'error.service.serverTroubleQuery':
    'The service had a problem on its side ({status}). This is usually temporary; Pictor keeps the task and asks again later.',
  'error.service.serverTroubleWaitSubmit':
    'The service had a problem on its side ({status}) and asked Pictor to wait about {unit, select, minutes {{amount, plural, one {# minute} other {# minutes}}} other {{amount, plural, one {# second} other {# seconds}}}}. This is usually temporary; try again in a few minutes.',
  'error.service.serverTroubleWaitQuery':
    'The service had a problem on its side ({status}) and asked Pictor to wait about {unit, select, minutes {{amount, plural, one {# minute} other {# minutes}}} other {{amount, plural, one {# second} other {# seconds}}}}. This is usually temporary; Pictor keeps the task and asks again later.',
  'error.service.rejectedSubmit':
    'The service rejected the request ({status}). Check the prompt and its options, then try again.',
  'error.service.rejectedSubmitReason':
    'The service rejected the request ({status}): {reason}. Check the prompt and its options, then try again.',
  'error.service.rejectedQuery': 'The service rejected the task query ({status}).',
  'error.service.rejectedQueryReason': 'The service rejected the task query ({status}): {reason}.',
  'error.service.unexpectedStatusSubmit':
    'The service answered with an unexpected status ({status}). Try again later.',
  'error.service.unexpectedStatusQuery':
    'The service answered with an unexpected status ({status}). Pictor keeps the task and asks again later.',
  'error.service.not200Submit':
    'The service answered {status} instead of 200, which counts as a failed request. The task may have been created; Pictor does not send it again on its own.',
  'error.service.not200Query':
    'The service answered {status} instead of 200 with the task. Pictor keeps the task and asks again later.',
  'error.service.unreadableSubmit':
    'The service answered with something Pictor could not read. The task may have been created; Pictor does not send it again on its own.',
  'error.service.unreadableQuery':
    'The service answered with something Pictor could not read. Pictor keeps the task and asks again later.',
  'error.service.redirectElsewhere':
    'The service redirected the request to another address, and Pictor did not send the key there. Check the service URL in Settings.',
  'error.service.redirectTooMany':
    'The service kept redirecting the request, so Pictor stopped and did not send the key any further. Check the service URL in Settings.',
  'error.service.redirectDropsSubmit':
    'The service answered the submit with a redirect ({status}) that would drop the request, so Pictor did not follow it. Check the service URL in Settings.',

  // No answer, a broken one, or none in time (core/service/network-errors.ts).
  'error.service.insecureSubmit':
    'Pictor could not make a secure connection to the service (its certificate was not accepted), so nothing was sent. Check the service URL and this computer’s date and time.',
  'error.service.insecureQuery':
    'Pictor could not make a secure connection to the service (its certificate was not accepted). Check the service URL and this computer’s date and time; the task is kept.',
  'error.service.unreachableSubmit':
    'Pictor could not reach the service, so nothing was sent. Check your internet connection and the service URL, then try again.',
  'error.service.refusedSubmit':
    'Nothing answers at {host}: the connection was refused, so nothing was sent. Check the service URL and its port, and that the service is running.',
  'error.service.noSuchHostSubmit':
    'The name {host} could not be found, so nothing was sent. Check the service URL for typing mistakes, and your internet connection.',
  'error.service.handshakeSubmit':
    'Pictor could not make a secure connection to {host}: the secure handshake failed, so nothing was sent. Check that the service URL is the service’s https:// address.',
  'error.service.blockedPort':
    'Pictor does not connect to port {port} of {host}: browsers refuse that port too, because other kinds of servers use it. Nothing was sent. Check the port in the service URL in Settings.',
  'error.service.localServerOtherUser':
    'Pictor sent nothing to {address}: the server listening there runs as another user on this computer ({user}), who could read your prompts, images and key. Start your own server there, or, if you trust that one (a system service), allow {address} under Local servers in Settings.',
  'error.service.localLookupSlow':
    'Pictor sent nothing to {host}: this computer did not look the name up within 3 seconds, so Pictor could not check whether it leads to a server another user on this computer runs. Check the network and the address, then try again.',
  'error.service.unreachableQuery':
    'Pictor could not reach the service. Check your internet connection; the task is kept and resumes when the network returns.',
  'error.service.brokeAfterSending':
    'The connection to the service broke after the request was sent, so Pictor cannot tell whether the task was created. It does not send it again on its own.',
  'error.service.brokeReadingSubmit':
    'The connection to the service broke while reading its answer. The task may have been created; Pictor does not send it again on its own.',
  'error.service.brokeReadingQuery':
    'The connection to the service broke while reading its answer. The task is kept and Pictor asks again when the network returns.',
  'error.service.noAnswerInTimeSubmit':
    'The service did not answer within {unit, select, ms {{amount} ms} other {{amount, plural, one {# second} other {# seconds}}}}. The task may have been created; Pictor does not send it again on its own.',
  'error.service.noAnswerInTimeQuery':
    'The service did not answer within {unit, select, ms {{amount} ms} other {{amount, plural, one {# second} other {# seconds}}}}. The task is kept and Pictor asks again later.',
  'error.service.unexpectedSubmit':
    'Pictor hit an unexpected problem while talking to the service. The task may have been created; Pictor does not send it again on its own.',
  'error.service.unexpectedQuery':
    'Pictor hit an unexpected problem while talking to the service. Pictor asks again later.',

  // Addresses Pictor will not use (core/service/url-policy.ts).
  'error.service.serviceUrlInvalid': 'The service URL is not a valid URL.',
  'error.service.serviceUrlCredentials':
    'The service URL must not contain a user name or password.',
  'error.service.serviceUrlPlainHttp':
    'The service URL must start with https:// (plain http:// is allowed only for this computer, e.g. http://127.0.0.1).',
  'error.service.serviceUrlScheme': 'The service URL must start with https://.',
  'error.service.serviceUrlQuery': 'The service URL must not have a query (?…) or fragment (#…).',
  'error.service.serviceUrlDotSegment':
    'The service URL’s path must not contain “.” or “..” as a part, not even percent-encoded (such as ..%2F).',
  'error.service.imageUrlInvalid': 'The image address is not a valid URL.',
  'error.service.imageUrlCredentials':
    'The image address must not contain a user name or password.',
  'error.service.imageUrlTooLong':
    'The image address is longer than {max} characters, which Pictor refuses.',
  'error.service.imageUrlScheme':
    'The image address uses {scheme}:, which Pictor does not download from.',
  'error.service.imageUrlThisComputer':
    'The image address points at this computer, which Pictor refuses for a remote service.',
  'error.service.imageUrlPrivate':
    'The image address points at a private or link-local network address, which Pictor refuses.',
  'error.service.imageHostPrivate':
    'The image address points to a private or local network ({address}), so Pictor did not download it.',
  'error.service.imageHostThisComputer':
    'The image address points at this computer ({address}), which Pictor refuses for a remote service.',
  'error.service.imageHostNoAddress':
    'The image host has no address, so Pictor could not download it.',

  // Before the key leaves (core/service/request-guard.ts): the service URL's faults, told to fix it.
  'error.service.serviceUrlInvalidFix': 'The service URL is not a valid URL. Fix it in Settings.',
  'error.service.serviceUrlCredentialsFix':
    'The service URL must not contain a user name or password. Fix it in Settings.',
  'error.service.serviceUrlPlainHttpFix':
    'The service URL must start with https:// (plain http:// is allowed only for this computer, e.g. http://127.0.0.1). Fix it in Settings.',
  'error.service.serviceUrlSchemeFix':
    'The service URL must start with https://. Fix it in Settings.',
  'error.service.serviceUrlQueryFix':
    'The service URL must not have a query (?…) or fragment (#…). Fix it in Settings.',
  'error.service.serviceUrlDotSegmentFix':
    'The service URL’s path must not contain “.” or “..” as a part, not even percent-encoded (such as ..%2F). Fix it in Settings.',
  'error.service.noKey': 'No API key is set. Add your key in Settings.',
  'error.service.keyUnsendable':
    'The API key contains characters that cannot be sent (spaces, line breaks or non-ASCII letters). Paste the key again in Settings.',

  // Task ids (core/service/task-id.ts).
  'error.service.taskIdEmpty': 'The task id is empty. Check the task id and paste it again.',
  'error.service.taskIdTooLong':
    'The task id is longer than {max} characters. Check the task id and paste it again.',
  'error.service.taskIdControl':
    'The task id contains control or invisible characters (such as a zero-width space). Check the task id and paste it again.',
  'error.service.taskIdSpaces':
    'The task id contains spaces. Check the task id and paste it again.',
  'error.service.taskIdDots':
    'The task id cannot be "." or ".." or contain them as a path part (such as "../"). Check the task id and paste it again.',
  'error.service.taskIdUnsendable':
    'The task id contains characters that cannot be sent. Check the task id and paste it again.',
  'error.service.taskIdCarriesKey':
    'The task id contains an API key Pictor holds, so Pictor did not track it or keep it. Check the task id and paste it again.',

  // What an answer carried (core/service/answer-parsing.ts, shared/service/wire.ts).
  'error.service.keyInTaskId':
    'The service sent back a task id that contains your API key, so Pictor did not keep it. The task may have been created; Pictor does not send it again on its own. Report this to the service’s provider before you submit again.',
  'error.service.keyInImageUrl':
    'The service sent an address for this image that contains your API key, so Pictor did not keep it or download it.',
  'error.service.failureWithheld':
    'The service reported a failure; its message contained the API key, so it is not shown.',
  'error.service.failedWithoutReason': 'The service reported the task as failed without a reason.',
  'error.service.moderatedWithoutReason':
    'The service’s content rules stopped this task. Change the prompt and try again.',
  'error.service.canceledWithoutReason': 'The task was canceled on the service.',
  'error.service.expiredWithoutReason':
    'The service no longer keeps this task’s results: they expired before Pictor could fetch them.',

  // Services other than today's contract (core/service/providers).
  'error.service.foreignTaskAddress':
    'The service gave an address on {host} for this task, which is not one of {service}’s addresses, so Pictor does not send your key there. The task is kept and waits; if {host} really is {service}’s, add it as the service’s address in Settings.',
  'error.service.keyInTaskAddress':
    'The service sent back an address for this task that contains your API key, so Pictor did not keep it. The task may have been created; Pictor does not send it again on its own.',
  'error.service.modelIdUnusable':
    'The model “{model}” cannot be sent to {service}: a model id is one to three parts of letters, digits, “.”, “_” and “-”, separated by “/”.',
  'error.service.modelRequired': '{service} needs a model: choose one before you generate.',
  'error.service.taskNeedsModel':
    '{service} finds a request only under the address of the model it was made with, and no model is named for this one, so Pictor cannot ask about it.',
  'error.service.noCancel': '{service} has no way to cancel a task.',
  'error.service.cancelNotNow': 'This task cannot be canceled now: it is no longer running.',
  'error.service.imageHostNotService':
    'The service gave an address on {host} for this image, which is not one of {service}’s image hosts, so Pictor did not download it.',
  'error.service.wrongProviderKey':
    'The key for this address was entered for another kind of service, so Pictor does not send it with this task.',
  'error.service.imageUrlOverLong':
    'The service sent an address for this image longer than {max, number} characters, so Pictor did not keep it.',
  // An image sent inline (core/service/inline-answer.ts); `{limit}` is the download's cap.
  'error.service.inlineImageRefused':
    'The service sent this image inside its answer, but {why, select, alphabet {its data has characters that are not base64} padding {its base64 data does not end with correct padding} notBase64 {not as base64 data} type {its type is not PNG, JPEG or WebP} tooBig {it is larger than the {limit} Pictor accepts} empty {with no data} other {in a form Pictor does not accept}}, so Pictor did not keep it.',
  'error.service.tooManyImages':
    'The service listed {count, plural, one {# image} other {# images}}; Pictor keeps the first {kept, number}.',

  // The structure of an answer (core/service/answer-structure.ts) and its reader (answer-reader.ts).
  'error.service.answerTooManyEntriesQuery':
    'The service’s answer lists more than {max, number} entries in one list, more than Pictor reads. Pictor keeps the task and asks again later.',
  'error.service.answerTooManyEntriesSubmit':
    'The service’s answer lists more than {max, number} entries in one list, more than Pictor reads. The task may have been created; Pictor does not send it again on its own.',
  'error.service.answerReaderStoppedQuery':
    'Pictor could not finish reading the service’s answer: the part that reads answers stopped or took too long. Pictor keeps the task and asks again later.',
  'error.service.answerReaderStoppedSubmit':
    'Pictor could not finish reading the service’s answer: the part that reads answers stopped or took too long. The task may have been created; Pictor does not send it again on its own.',

  // "Test connection" (core/service/connection-test.ts, service-connection-test.ts).
  'error.service.testDemoNotRunning':
    'The built-in demo service is not running, so there is nothing to test.',
  'error.service.testNoKey':
    'No API key is set for {host}, so there is nothing to test. Add that service’s API key first.',
  'error.service.testKeyBeforeAddress':
    'Your API key was entered before any service address was set, and is sent nowhere until you save an address, so {host} was not tested. Save this address first.',
  'error.service.testKeyForOther':
    'Your API key was entered for {keyService} and is never sent to another service, so {host} was not tested. Save this address to decide what happens to the key, or enter {host}’s key.',
  'error.service.testKeyNeedsAddress':
    'Enter your service’s address above first: the key is tested and stored for that address. The built-in demo service needs no key.',
  'error.service.testKeySaveAddress':
    'Save the address {host} first: a key being entered is tested with the saved service address, where it would be stored.',
  'error.service.testKeyRefused':
    'The service at {host} refused this key ({status}). Check that you copied the whole key and that it belongs to this service.',
  'error.service.testAccepted': 'The service at {host} answered and accepted the key.',
  'error.service.testUnreachable':
    'Pictor could not reach {host}. Check your internet connection and the service’s address, then try again.',
  'error.service.testNotAvailable':
    '{service} has no way to check a key without creating a task, so Pictor does not test it: your first task there shows whether the key works.',
} as const;

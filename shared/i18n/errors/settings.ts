/**
 * Error sentences of the settings area (merged into shared/i18n/main-messages.ts): keys
 * `error.settings.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 */

/**
 * A secret store named as a user would say it, from the backend name in `param`
 * (Electron's safeStorage names; an unknown one is quoted as it is).
 */
const backend = (param: string): string =>
  `{${param}, select, keychain {the macOS Keychain} dpapi {Windows data protection (DPAPI)} gnome_libsecret {the GNOME keyring (libsecret)} kwallet {KWallet} kwallet5 {KWallet 5} kwallet6 {KWallet 6} basic_text {Chromium’s basic text store} plaintext {no encryption} unknown {an unrecognised secret store} other {the “{${param}}” secret store}}`;

/** A setting as the user knows it, from its name in `setting`. */
const SETTING =
  '{setting, select, serviceBaseUrls {service addresses} defaultModel {default model} defaultSize {default size} defaultQuality {default quality} defaultCount {default number of tasks} galleryDir {gallery folder} notifications {notifications} theme {theme} language {language} watchTimeoutMinutes {watch timeout} updateMode {updates} other {{setting}}}';

/** The defaults that settings not read do not take (UNREAD_SETTINGS), said after the fact. */
const CAUTIOUS =
  'Two of those defaults are on their cautious side, as you may have chosen: updates are only checked and announced, and input images are never uploaded.';

const ANYONE = 'anyone who can read your files could read the key';

export const settingsErrors = {
  // A pasted key refused (core/secrets/key-text.ts); none of them quotes the key.
  'error.settings.keyEmpty': 'Paste your API key: the field is empty.',
  'error.settings.keyTooLong':
    'That is too long to be an API key (over {max, number} characters). Paste only the key.',
  'error.settings.keyBearer': 'Paste only the key itself, without the word “Bearer”.',
  'error.settings.keyWhitespace':
    'The key contains a space, line break or control character. Paste only the key itself.',
  'error.settings.keyNotAscii':
    'The key contains a character that API keys do not use (such as a typographic dash or quote). Copy it again from your provider’s key page.',

  // The key's state and the vault's failures (core/key-vault/key-messages.ts).
  'error.settings.keyNotReady':
    'Pictor is waiting for your system’s key storage to answer. If it asked for a password, its window may be hidden behind other windows.',
  'error.settings.keyNotSet':
    'No API key is set, so Pictor uses its built-in demo service. Paste your key in Settings to use your own service.',
  'error.settings.keyNeedsConsent': `This computer protects saved secrets only with ${backend('backend')}, which is effectively plain text. Store the key anyway if you accept that ${ANYONE}, or set up a keyring (such as GNOME Keyring or KWallet) and restart Pictor.`,
  'error.settings.keyUnavailableEmpty': `This computer cannot encrypt your key right now (no keyring or keychain is available). Store it without encryption if you accept that ${ANYONE}, or keep using the demo service.`,
  'error.settings.keyUnavailableStored':
    'Your saved key cannot be read because this computer’s encryption is not available right now. Unlock your keyring or keychain and restart Pictor; if that does not help, enter the key again.',
  'error.settings.keyBackendChanged': `Your key was saved with ${backend('stored')}, but Pictor now runs with ${backend('current')}, which cannot read it. Enter the key again.`,
  'error.settings.keyDecryptFailed':
    'Your saved key could not be decrypted (it may come from another computer or user account, or the keyring was reset). Enter the key again.',
  'error.settings.keyDamaged':
    'The file holding your key was damaged and could not be read. Enter the key again.',
  'error.settings.keyDamagedCopy':
    'The file holding your key was damaged and could not be read; a copy was kept at {copy}. Enter the key again.',
  'error.settings.keyWeakReady': `Your key is stored with ${backend('backend')}, as you agreed: ${ANYONE}.`,
  'error.settings.keyNotSaved':
    'The key could not be saved in {path}. Check that the folder is writable and try again.',
  'error.settings.keyNotRemoved':
    'The key could not be removed from {path}. Check that the folder is writable and try again.',
  'error.settings.keyEncryptFailed':
    'This computer’s encryption refused to protect the key. Try again, or restart Pictor.',

  // What an acceptable value looks like (core/settings/settings-fields.ts FIELD_RULES).
  'error.settings.ruleBaseUrl':
    'The service URL must be a web address of at most 2,000 characters, or empty.',
  'error.settings.ruleProvider': 'The service must be one of the services listed in Settings.',
  'error.settings.addressShared':
    '{first} and {second} would both be at {host}. Two services cannot share one address, as Pictor would not know whose key goes there: give one of them another address.',
  'error.settings.ruleServiceName': 'A service’s name must be text of at most 60 characters.',
  'error.settings.ruleDefaultModel':
    'The default model name must be text of at most 200 characters.',
  'error.settings.ruleDefaultSize':
    'The default size must look like 1024x1024 (width x height in whole pixels), or be empty.',
  'error.settings.ruleDefaultQuality':
    'The default quality must be text of at most 100 characters.',
  'error.settings.ruleDefaultCount':
    'The default number of tasks must be a whole number from 1 to 10.',
  'error.settings.ruleGalleryDir':
    'The gallery folder must be a full path (such as /Users/you/Pictures/Pictor), or empty for the default folder.',
  'error.settings.ruleNotifications': 'Notifications must be switched on or off.',
  'error.settings.ruleTheme': 'The theme must be system, light or dark.',
  'error.settings.ruleLanguage':
    'The language must be system or one of the languages Pictor offers.',
  'error.settings.ruleWatchTimeout':
    'The watch timeout must be a whole number of minutes from 0 (watch forever) to 10,080 (one week).',
  'error.settings.ruleUpdateMode': 'Updates must be downloaded automatically or only announced.',
  'error.settings.ruleLocalServers':
    'Each allowed local server must be an address on this computer with its port, such as 127.0.0.1:8188 or [::1]:8188 (at most 32).',

  // A settings change refused or not saved (core/settings/settings-patch.ts, settings-service.ts).
  'error.settings.unknownSetting': 'Pictor has no setting called “{name}”.',
  'error.settings.notAList': 'The settings change was not a list of settings.',
  'error.settings.notSaved':
    'Your settings could not be saved in {path}. Check that the folder is writable and try again.',
  // Another process held settings.json's lock past the wait (adapters/store-lock.ts).
  'error.settings.busy':
    'Your settings were not saved: another Pictor command is changing {path} and has not finished. A command stopped with Ctrl+Z holds it until it goes on: let it finish, then try again.',

  // A new service address refused to keep the key where it was entered (app/app-runtime.ts).
  'error.settings.keyStaysWith':
    'The service address was not changed: your API key stays with {from} and is never sent to {to} without your say-so. To use that service, change the address again and choose to send the key, or remove the key and enter that service’s key.',
  // The same, for a key saved before any service address was set.
  'error.settings.keyNotSent':
    'The service address was not changed: your API key is never sent to {to} without your say-so. To use that service, change the address again and choose to send the key, or remove the key and enter that service’s key.',
  // A new address asked for while main's key question is on screen, or soon after the user kept
  // the key where it was (app/key-question-gate.ts).
  'error.settings.keyQuestionOpen':
    'The service address was not changed: Pictor is already asking what to do with your API key. Answer that question first.',
  'error.settings.keyQuestionResting':
    'The service address was not changed: you just kept your API key where it was, so Pictor does not ask again yet. To send it to another service, change the address again in {seconds, number} seconds.',

  // An address added to Local servers that the user did not agree to in main's own dialog, or
  // asked for while that question is on screen or soon after the user declined one
  // (app/local-server-question.ts).
  'error.settings.localServerNotAllowed':
    'Local servers were not changed: {address} is allowed only once you agree in Pictor’s own question, and you did not. Nothing is sent to a server another user of this computer runs there.',
  'error.settings.localServerQuestionOpen':
    'Local servers were not changed: Pictor is already asking whether to allow a local server. Answer that question first.',
  'error.settings.localServerQuestionResting':
    'Local servers were not changed: you just declined to allow a local server, so Pictor does not ask again yet. To allow one, add it again in {seconds, number} seconds.',

  // Problems found when the settings file was read at start (core/settings/settings-service.ts).
  // Settings not read stand in as the defaults but two on their cautious side (UNREAD_SETTINGS,
  // shared/domain/settings.ts): each sentence says which, since the user may have chosen them.
  'error.settings.fileDamaged': `Your settings file ({path}) was damaged and could not be read, so Pictor is using the default settings. Remove or repair that file to save settings again. ${CAUTIOUS}`,
  'error.settings.fileDamagedCopy': `Your settings file was damaged and has been reset to defaults; a copy was kept at {copy}. ${CAUTIOUS}`,
  'error.settings.fileUnreadable': `Pictor cannot read your settings file ({path}): another user owns it, or the disk failed. Pictor uses the default settings for now and leaves the file as it is, and a setting you change cannot be saved until it is readable: make the file readable for your user and restart Pictor. ${CAUTIOUS}`,
  'error.settings.settingReset': `The setting “${SETTING}” had a value Pictor cannot use and was reset to its default.`,
  // A refused value whose default would act without asking: its cautious side stands in.
  'error.settings.settingCautious':
    '{setting, select, updateMode {The setting “updates” had a value Pictor cannot use, so updates are only checked and announced until you choose otherwise in Settings.} neverUploadInputs {The setting “never upload inputs” had a value Pictor cannot use, so input images are never uploaded until you choose otherwise in Settings.} other {The setting “{setting}” had a value Pictor cannot use and was set to its cautious side.}}',
  'error.settings.oldFileKept': 'A copy of the old file was kept at {copy}.',
  // A command that reads the app's settings file found it damaged, and left it (edit-settings.ts).
  'error.settings.damagedNotUsed':
    'Your settings file ({path}) is damaged or cannot be read, so nothing was sent: it says whether input images may be uploaded. Open Pictor to repair it (a copy of the old file is kept), or remove the file.',

  // Why a task waits for a key (app/app-credentials.ts, core/credentials/record-credentials.ts).
  'error.settings.taskNoKey':
    'No API key is set for {host}, where this task lives. It waits until you add that service’s key in Settings.',
  'error.settings.taskOtherOrigin':
    'This task lives on {host}, but your key was entered for {keyHost} and is never sent to another service. It waits until the key of {host} is set in Settings.',
  'error.settings.taskKeyUnbound':
    'This task lives on {host}. Your key was saved before any service address was set, and it is never sent to a service without your say-so: the task waits until {host} is the service address in Settings and you choose to send the key there.',
  'error.settings.taskAddressShared':
    'This task lives on {host}, which more than one service in Settings has as its address. Its key is sent there only once a single service has that address.',
  'error.settings.taskDemoNotRunning':
    'This task was made on the built-in demo service, which is not running now. It continues when Pictor is started again.',
  'error.settings.taskDemoDialect':
    'This task was made by Pictor’s command line on its built-in demo of another service’s dialect, which the window does not run. Continue it with pictor resume --provider demo; nothing is sent for it from here.',
  'error.settings.taskOldAddress':
    'This task was made with the service address {endpoint}. It waits until that address is set again in Settings.',
  'error.settings.taskNoKeyGeneric':
    'No API key is set for the service this task lives on. It waits until one is set.',
  'error.settings.importedOtherService':
    'This task was imported, and the service it names ({host}) comes from the imported file, not from you. Pictor never sends your key to a service because a task names it. If you use that service, enter its address and its own key in Settings yourself; until then the task waits.',
  'error.settings.importedLocal':
    'This task was imported from a gallery folder and names a service on this computer. Pictor does not contact services on this computer for imported tasks; what the folder held is kept.',

  // The app's own updates (app/updates/update-service.ts).
  'error.settings.noUpdateToInstall': 'There is no downloaded update to install yet.',
  'error.settings.noUpdateDownload':
    'There is no download of a new version to open: check for updates again, or get Pictor from its download page.',
} as const;

/**
 * Refusals of a new service address that are the user's own answer to main's question (keep
 * the key where it was): the window says them plainly, not as an error.
 */
export const USERS_CHOICE_SENTENCES: ReadonlySet<string> = new Set<keyof typeof settingsErrors>([
  'error.settings.keyStaysWith',
  'error.settings.keyNotSent',
]);

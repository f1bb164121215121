/** English strings of the Settings screen. */
export const settings = {
  'settings.title': 'Settings',
  'settings.loading': 'Loading settings…',
  'settings.saved': 'Saved.',

  'settings.service.title': 'Service',
  'settings.service.description':
    'Where Pictor sends prompts. Without an address and a key, the built-in demo service is used.',
  'settings.baseUrl.label': 'Service address (base URL)',
  'settings.baseUrl.placeholder': 'https://api.example.com',
  'settings.baseUrl.hint': 'The address the service’s documentation gives, without /v1.',
  'settings.baseUrl.hintDemo':
    'The address the service’s documentation gives, without /v1. Leave it empty to keep using the demo service.',
  'settings.serviceName.label': 'Name of this service',
  'settings.serviceName.hint':
    'How Pictor names this service everywhere in the window. Left empty, it is named by its address’s host.',
  'settings.serviceName.save': 'Use this name',
  'settings.test.button': 'Test connection',
  'settings.test.running': 'Testing the connection…',

  'settings.key.title': 'API key',
  'settings.key.description':
    'Paste your key once. Pictor keeps it in your system’s secure storage and never shows it again.',
  'settings.key.label': 'API key',
  'settings.key.placeholder': 'Paste your key',
  'settings.key.hint': 'The key is hidden as you paste it and stays on this computer.',
  'settings.key.save': 'Save key',
  'settings.key.saving': 'Checking and saving the key…',
  'settings.key.stored': 'A key is stored. Fingerprint: {fingerprint}',
  'settings.key.storedWith': 'Protected by {backend}.',
  'settings.key.boundTo': 'Sent only to {address}. Pictor asks you before it goes anywhere else.',
  'settings.key.unbound':
    'Not tied to a service yet: Pictor asks you before sending it to the address you set.',
  'settings.key.weakWarning':
    'This key is stored with weak protection: anyone who can read your files could read it.',
  'settings.key.replace': 'Replace key',
  'settings.key.remove': 'Remove key',
  'settings.key.removeConfirm.title': 'Remove the API key?',
  'settings.key.removeConfirm.body':
    'Pictor forgets the key and goes back to the demo service. Tasks created with it wait until you add it again.',
  'settings.key.consent.question': 'Store with weaker protection?',
  'settings.key.consent.accept': 'Store with weaker protection',
  'settings.key.consent.decline': 'Don’t store it',
  'settings.key.savedAnnounce': 'Key saved.',
  'settings.key.notSavedRefused': 'The key was not saved. {reason}',
  'settings.key.unchecked.title': 'Save the key without checking it?',
  'settings.key.unchecked.body':
    'Pictor could not ask the service whether this key works. Save it anyway, or check the address and your connection and try again.',
  'settings.key.unchecked.confirm': 'Save anyway',
  'settings.key.removedAnnounce': 'Key removed. Pictor uses the demo service.',
  'settings.key.savedUncheckedAnnounce': 'Key saved, not checked yet.',
  'settings.key.notSavedStorage':
    'The key was not saved: secure storage is not ready yet. Try again in a moment.',
  'settings.key.checkAccepted': 'The service accepted this key when it was checked, {time}.',
  'settings.key.checkRefused':
    'The service refused this key when it was last checked, {time}. Replace it, or test the connection again.',
  'settings.key.notChecked':
    'Not checked yet: Test connection asks the service whether it takes this key.',
  'settings.key.backend.keychain': 'the macOS Keychain',
  'settings.key.backend.dpapi': 'Windows data protection',
  'settings.key.backend.libsecret': 'the GNOME keyring',
  'settings.key.backend.kwallet': 'KWallet',
  'settings.key.backend.basicText': 'Chromium’s basic text store (weak)',
  'settings.key.backend.plaintext': 'no encryption',
  'settings.key.backend.other': 'the “{backend}” secret store',
  'settings.services.title': 'Other image services',
  'settings.services.description':
    'Each service has its own key, sent only to that service’s address.',
  'settings.services.defaultModel': 'Default model: {model}',
  'settings.workflows.title': 'Workflows',
  'settings.workflows.hint':
    'Import a workflow saved in ComfyUI with “Export (API)”, choose once which of its inputs take the prompt and the other values, and name it: it becomes a model of ComfyUI in the compose form and in compare.',
  'settings.workflows.none': 'No workflow imported yet.',
  'settings.workflows.import': 'Import a workflow…',
  'settings.workflows.mapping': 'Choose which input of the workflow takes each value of a request.',
  'settings.workflows.name': 'Model name',
  'settings.workflows.nameHint':
    'Letters, digits, “.”, “_” or “-”, starting with a letter or a digit; at most 64.',
  // The one rule of a workflow's name beyond its letters (shared/domain/workflow-name.ts).
  'settings.workflows.nameRefused':
    '{rule, select, device {Windows takes a name whose part before the first dot is CON, PRN, AUX, NUL, COM0–COM9 or LPT0–LPT9 for a device, not a file: choose another, so the workflow opens on every system.} ending {The name cannot end in a dot or a space: Windows drops them from a file’s name.} other {The name holds an invisible character: remove it.}}',
  'settings.workflows.role.prompt': 'Prompt',
  'settings.workflows.role.negative': 'Negative prompt',
  'settings.workflows.role.seed': 'Seed',
  'settings.workflows.role.width': 'Width',
  'settings.workflows.role.height': 'Height',
  'settings.workflows.role.steps': 'Steps',
  'settings.workflows.role.image': 'Input image',
  'settings.workflows.unused': 'Not used',
  'settings.workflows.save': 'Save workflow',
  'settings.workflows.saved':
    'Saved {name}. Choose it as the model of ComfyUI in the compose form.',
  'settings.workflows.remove': 'Remove {name}',
  'settings.modelOptions.hint':
    'Your service publishes no options for its models. Give the options its model page describes as a small JSON schema file, or none.',
  'settings.modelOptions.kept': 'Options from a file for {model}: {names}.',
  'settings.modelOptions.none':
    'No options for {model}: only the prompt, size and quality are sent.',
  'settings.modelOptions.useNone': 'Use none',
  'settings.services.address': 'Address',
  'settings.services.keyLabel': '{service} API key',
  'settings.services.addressHint':
    'Leave empty for the service’s own address, {address}. Give another for a proxy or a regional host.',
  'settings.services.testHint':
    'Test connection asks {address} whether it takes the saved key, without creating a task, so nothing is charged.',
  'settings.services.keyRemoved': 'Key removed.',
  'settings.index.label': 'Settings sections',
  'settings.index.services': 'Services',
  'settings.index.more': 'Other settings',
  'settings.serviceState.checked': 'Connected, key checked',
  'settings.serviceState.unchecked': 'Key not checked',
  'settings.serviceState.refused': 'Key refused',
  'settings.serviceState.attention': 'Key needs attention',
  'settings.serviceState.none': 'No key',
  'settings.serviceState.keyless': 'No key needed',
  'settings.serviceState.demo': 'Built-in demo',
  'settings.serviceState.demoNoKey': 'No key: Generate uses the built-in demo',
  'settings.serviceState.offline': 'Offline; key accepted when last checked, {when}',
  // Main's last call to the service's address found no such host, a refused connection or a
  // failed secure connection while the computer was online (core/service/service-reach.ts).
  'settings.serviceState.unreachable': 'Service unreachable',
  'settings.connect.open': 'Connect a service',
  'settings.connect.title': 'Connect a service',
  'settings.connect.intro':
    'Choose your image service, check its address and paste your API key, then test the connection and save. Pictor asks the service whether it takes the key before keeping it; nothing is created there.',
  'settings.connect.service': 'Service',
  'settings.connect.address': 'Address',
  'settings.connect.addressHint':
    'The service’s own address, {address}, is filled in. Change it only for a proxy or a regional host.',
  'settings.connect.addressNeeded':
    'Enter the service’s address first: the key is tested and stored for that address.',
  'settings.connect.keyStored':
    'A key is stored for this service (fingerprint {fingerprint}). Paste another to replace it, or test the connection with the one stored.',
  'settings.connect.doneChecked':
    'Connected to {service}: the service accepted your key. New tasks go there.',
  'settings.connect.doneUnchecked':
    'Connected to {service}, with a key not checked yet. New tasks go there.',
  'settings.connect.doneKeyless':
    'Connected to {service} at the address given; it needs no key. New tasks go there.',

  'settings.defaults.title': 'New prompts',
  'settings.defaults.description': 'What the compose form starts with.',

  'settings.gallery.title': 'Gallery',
  'settings.gallery.label': 'Gallery folder',
  'settings.gallery.default': 'Your Pictures folder, in Pictor',
  'settings.gallery.change': 'Change…',
  'settings.gallery.open': 'Open folder',
  'settings.gallery.hint': 'Images and their prompts are saved here as ordinary files.',
  'settings.folder.title': 'Change the gallery folder',
  'settings.folder.sameTitle': 'This is the gallery folder already',
  'settings.folder.sameBody':
    'Your library is in this folder now: there is nothing to move. To move it, choose another folder.',
  'settings.folder.sameOk': 'OK',
  'settings.folder.facts':
    '{tasks, plural, one {# task} other {# tasks}}, {files, plural, one {# file} other {# files}}, {size}',
  'settings.folder.hasLibrary': 'This folder already holds a Pictor library: {facts}.',
  'settings.folder.noLibrary': 'This folder holds no Pictor library.',
  'settings.folder.current': 'Your library now is in {path}: {facts}.',
  'settings.folder.move': 'Move this library there',
  'settings.folder.openThere': 'Open the library there',
  'settings.folder.startEmpty': 'Start an empty library there',
  'settings.folder.moveHint':
    'Moving copies every task folder there and checks it; only then does Pictor switch to the new folder and remove the old copies. You can cancel until then, and your library stays as it is.',
  'settings.folder.openHint':
    'Opening uses the library there as it is and adds its tasks to your history; your current library stays where it is, untouched.',
  'settings.folder.emptyHint':
    'Starting an empty library there leaves your current library where it is, untouched; new images go to the new folder.',
  'settings.folder.moving': 'Moving the library',
  'settings.folder.opening': 'Opening the library',
  'settings.folder.starting': 'Looking at the library…',
  'settings.folder.progress':
    'Copied {filesDone, number} of {files, plural, one {# file} other {# files}} ({bytesDone} of {bytes}).',
  'settings.folder.cancelMove': 'Cancel the move',
  'settings.folder.cancelling': 'Cancelling…',
  'settings.folder.moved':
    'The library moved to {path}: {moved, plural, one {# task folder} other {# task folders}}.',
  'settings.folder.leftBehind':
    '{count, plural, one {# item (a link or a file that could not be removed) stays} other {# items (links or files that could not be removed) stay}} in the old folder.',
  'settings.folder.opened':
    'The gallery is now {path}; {imported, plural, one {# of its tasks was} other {# of its tasks were}} added to your history.',
  'settings.folder.leftOut':
    '{count, plural, one {# task folder was left out:} other {# task folders were left out:}}',
  'settings.folder.cancelled':
    'The move was cancelled. Your library is still in {path}, complete; nothing was removed from it.',

  'settings.behaviour.title': 'Behaviour and appearance',
  'settings.watch.label': 'Stop watching a task after (minutes)',
  'settings.watch.hint':
    'The task id is kept: a stopped task can be resumed at any time. 0 watches forever.',
  'settings.watch.never': 'Tasks are watched until they finish.',
  'settings.watch.error': 'Enter a whole number of minutes from 0 to 10080 (one week).',
  'settings.notifications.label': 'Notify me when a task finishes',
  'settings.notifications.hint': 'Only while Pictor’s window is not in front.',
  'settings.localServers.label': 'Local servers',
  'settings.localServers.hint':
    'Pictor sends nothing to a server on this computer that another user runs: it could read your prompts, images and key. List here, one a line, those you trust (a system service), such as 127.0.0.1:8188. Checked on Linux only; macOS and Windows cannot tell who runs a server.',
  'settings.theme.label': 'Theme',
  'settings.language.label': 'Language',
  'settings.language.hint': 'Applies at once. Dates, numbers and sizes follow it too.',
  'settings.language.system': 'System language',
  'settings.theme.system': 'Same as the system',
  'settings.theme.light': 'Light',
  'settings.theme.dark': 'Dark',

  'settings.about.title': 'About',
  'settings.about.version': 'Pictor {version}',
  'settings.about.logs': 'Open the log folder',

  'settings.archive.title': 'Library',
  'settings.archive.description':
    'Move your library: export every task and image to one archive, or merge an export or a gallery folder into this one. Nothing here is ever overwritten.',
  'settings.archive.export': 'Export all…',
  'settings.archive.importArchive': 'Import archive…',
  'settings.archive.importFolder': 'Import folder…',
  'settings.archive.cancel': 'Cancel',
  'settings.archive.progressLabel':
    '{operation, select, export {Export progress} other {Import progress}}',
  'settings.archive.progress':
    '{operation, select, export {Exporting} other {Importing}}: {done} of {total, plural, one {# task} other {# tasks}} ({size})',
  'settings.archive.exported':
    'Exported {tasks, plural, one {# task} other {# tasks}} and {images, plural, one {# image} other {# images}} ({size}) to {file}.',
  'settings.archive.exportSkipped':
    '{count, plural, one {# file was left out:} other {# files were left out:}}',
  'settings.archive.imported':
    'Added {tasks, plural, one {# task} other {# tasks}} and {images, plural, one {# image} other {# images}}.',
  'settings.archive.duplicates':
    'Already in the library, skipped: {tasks, plural, one {# task} other {# tasks}} and {images, plural, one {# image} other {# images}}.',
  'settings.archive.refused':
    '{count, plural, one {# file was refused:} other {# files were refused:}}',
  'settings.archive.refusedMore': '…and {count, plural, one {# more} other {# more}}.',
  'settings.archive.cancelled':
    'Import cancelled. What was imported before stays in the library; import again to finish.',
  'settings.archive.hint':
    'An import merges: the same task with the same image is kept once, a different image gets a new name.',
  'settings.updates.label': 'Updates',
  'settings.updates.download': 'Download updates automatically',
  'settings.updates.notify': 'Only check and tell me',
  'settings.updates.hint':
    'Pictor checks when it starts and once a day. It never restarts by itself: you choose when, and running tasks resume after the restart.',
  'settings.updates.linux':
    'On Linux, Pictor tells you about a new version; your package manager installs it.',
  'settings.updates.windows':
    'This copy of Pictor is not signed, so it cannot install updates itself: it tells you about a new version and opens its installer’s download.',
  'settings.updates.mac':
    'This copy of Pictor is not signed with its Developer ID, so it cannot install updates itself: it tells you about a new version and opens its download.',
  'settings.updates.check': 'Check now',
  'settings.updates.checking': 'Checking for updates…',
  'settings.updates.upToDate': 'Pictor is up to date.',
} as const;

/**
 * The main process's English messages: the application menu, desktop notifications and native
 * dialogs. ICU MessageFormat like the renderer's catalogue (renderer/i18n/en); each other language
 * is `main-locales/<tag>.json` with the same keys, checked by tests/unit/shared/main-catalogue.test.ts.
 *
 * Top-level menu names carry Windows/Linux mnemonics: `&` before the access key, or `(&X)` after
 * the name where the language's script has no Latin letters (macOS drops both).
 *
 * Error sentences (shared/i18n/errors/<area>.ts, keys `error.<area>.*`) are here too: errors carry
 * them as {@link Sentence}s (shared/i18n/sentence.ts), so the window shows a task's failure in
 * the language chosen when it is read; their technical `detail` stays in English, like the log.
 */

import { compareErrors } from './errors/compare';
import { inputErrors } from './errors/inputs';
import { providerInputErrors } from './errors/provider-inputs';
import { editErrors } from './errors/edit';
import { lineageErrors } from './errors/lineage';
import { costErrors } from './errors/costs';
import { galleryErrors } from './errors/gallery';
import { generalErrors } from './errors/general';
import { libraryErrors } from './errors/library';
import { serviceErrors } from './errors/service';
import { serviceTestErrors } from './errors/service-tests';
import { settingsErrors } from './errors/settings';
import { submitErrors } from './errors/submit';
import { templateErrors } from './errors/templates';
import { workflowErrors } from './errors/workflows';
import { templateFileErrors } from './errors/template-files';
import { templateStoreErrors } from './errors/template-store';
import { templateRunErrors } from './errors/template-runs';
import { triageErrors } from './errors/triage';
import { promptErrors } from './errors/prompts';
import { paramErrors } from './errors/params';

/** The main process's own messages; the error sentences join them in {@link mainMessages}. */
const ownMessages = {
  // The application menu (app/os/menu-template.ts).
  'menu.file': '&File',
  'menu.edit': '&Edit',
  'menu.view': '&View',
  'menu.window': '&Window',
  'menu.help': '&Help',
  'menu.about': 'About {app}',
  'menu.settings': 'Settings…',
  'menu.services': 'Services',
  'menu.hide': 'Hide {app}',
  'menu.hideOthers': 'Hide Others',
  'menu.showAll': 'Show All',
  'menu.quit': 'Quit {app}',
  'menu.newPrompt': 'New Prompt',
  'menu.closeWindow': 'Close Window',
  'menu.undo': 'Undo',
  'menu.redo': 'Redo',
  'menu.cut': 'Cut',
  'menu.copy': 'Copy',
  'menu.paste': 'Paste',
  'menu.pasteAndMatchStyle': 'Paste and Match Style',
  'menu.delete': 'Delete',
  'menu.selectAll': 'Select All',
  'menu.tasks': 'Tasks',
  'menu.gallery': 'Gallery',
  'menu.costs': 'Costs',
  'menu.search': 'Search',
  'menu.triageView': 'Triage View',
  'menu.autoAdvance': 'Auto-Advance',
  'menu.promptHistory': 'Prompt History…',
  'menu.actualSize': 'Actual Size',
  'menu.zoomIn': 'Zoom In',
  'menu.zoomOut': 'Zoom Out',
  'menu.fullScreen': 'Toggle Full Screen',
  'menu.minimize': 'Minimize',
  'menu.zoom': 'Zoom',
  'menu.bringAllToFront': 'Bring All to Front',
  'menu.openLogs': 'Open Logs Folder',
  'menu.installCommandLineTool': 'Install Command Line Tool…',

  // Desktop notifications (app/os/notification-policy.ts).
  'notify.imagesReady':
    '{count, plural, =1 {Image ready} one {# image ready} other {# images ready}}',
  'notify.generationFailed': 'Generation failed',
  'notify.summaryImages': '{count, plural, one {# image ready} other {# images ready}}',
  'notify.summaryFailed': '{count, plural, one {# generation failed} other {# generations failed}}',
  'notify.quoted': '“{prompt}”',
  /** The last item of a summary's prompt list ("“a”, “b”, “c”, and 2 more"). */
  'notify.more': '{count, plural, one {# more} other {# more}}',
  'notify.noImageSaved': 'The service finished the task but no image could be saved.',
  'notify.noReason': 'The service did not say why.',

  // The key-origin question (adapters/dialog-prompts.ts).
  'keyOrigin.title': 'Send your API key to another service?',
  'keyOrigin.message': 'Send your API key to {to}?',
  'keyOrigin.messageWithFingerprint': 'Send your API key ({fingerprint}) to {to}?',
  'keyOrigin.savedBefore': 'Your key was saved before a service address was set.',
  'keyOrigin.enteredFor': 'Your key was entered for {from}.',
  'keyOrigin.detail':
    'From now on Pictor would send it to {origin}. Only do this if that service issued the key. Otherwise remove the key here and paste the key from {to}.',
  'keyOrigin.cancel': 'Cancel',
  'keyOrigin.carry': 'Send the key to {to}',
  'keyOrigin.forget': 'Remove the key and change the address',
  // Before an address joins Settings › Local servers (adapters/dialog-prompts.ts).
  'localServer.message': 'Allow Pictor to send to {address}?',
  'localServer.detail':
    'If another user of this computer runs the server there, it will receive your prompts, images and API key. Allow it only for a server you trust, such as a system service you set up.',
  'localServer.allow': 'Allow',
  'localServer.keep': 'Don’t Allow',

  // macOS's "Install Command Line Tool…" (app/os/command-line-tool.ts, adapters/dialog-prompts.ts).
  'commandLineTool.confirm': 'Install the pictor command at {link}?',
  'commandLineTool.confirmDetail':
    'Then you can type pictor in Terminal to use Pictor’s command line. The command starts this copy of Pictor.',
  'commandLineTool.install': 'Install',
  'commandLineTool.cancel': 'Cancel',
  'commandLineTool.installed':
    'The pictor command is installed at {link}. Open a new Terminal window and type: pictor help',
  'commandLineTool.alreadyInstalled':
    'The pictor command at {link} already starts this copy of Pictor.',
  'commandLineTool.notPictors':
    '{link} already exists and is not Pictor’s, so Pictor left it as it is.',
  'commandLineTool.denied':
    'Pictor is not allowed to create {link}. To install the command, run this in Terminal: {command}',
  'commandLineTool.failed': 'Pictor could not create {link} ({reason}).',

  // The window's crash and hang boxes (adapters/renderer-crashes.ts).
  'crash.message': 'Pictor’s window keeps stopping unexpectedly.',
  'crash.detail':
    'It stopped several times in a few minutes ({reason}). Your tasks keep running and nothing was lost. Reload the window to try again, or quit Pictor; the log file has the details.',
  'crash.reload': 'Reload the window',
  'crash.quit': 'Quit Pictor',
  'hang.message': 'Pictor’s window is not responding.',
  'hang.detail':
    'Your tasks keep running. Wait for the window to respond, or reload it; nothing is lost.',
  'hang.wait': 'Wait',

  // File dialogs (adapters/shell-actions.ts, adapters/library-dialogs.ts, app-main.ts).
  'dialog.saveImageAs': 'Save Image As',
  'dialog.libraryFolder': 'Choose the Gallery Folder',
  'dialog.chooseFolder': 'Choose Folder',
  'dialog.exportLibrary': 'Export the Library',
  'dialog.importLibrary': 'Import a Library',
  'dialog.export': 'Export',
  'dialog.import': 'Import',
  'dialog.zipArchive': 'ZIP archive',
  'dialog.exportCosts': 'Export the Costs',
  'dialog.csvFile': 'CSV spreadsheet',
  'dialog.jsonFile': 'JSON file',
  'dialog.exportTemplates': 'Export Templates',
  'dialog.importTemplates': 'Import Templates',

  // An amount of credits, its number already written for the locale (shared/i18n/money.ts).
  'money.credits': '{amount} credits',

  // The generic service's label (PROVIDERS.pictor.label) where a sentence names a service as
  // `{service}`: a word, not a brand, so it is written in the reader's language (service-names.ts).
  'service.pictor': 'Image task service',

  // Raising or removing a hard spending cap (adapters/dialog-prompts.ts).
  'capChange.raise': 'Raise your hard spending cap from {from} to {to}?',
  'capChange.remove': 'Remove your hard spending cap of {from}?',
  'capChange.detail':
    'Pictor asks in this window of its own because only you may loosen a hard spending cap.',
  'capChange.confirmRaise': 'Raise the Cap',
  'capChange.confirmRemove': 'Remove the Cap',
  'capChange.keep': 'Keep the Cap',
  'capChange.price':
    'Change the price of {service}{model, select, all {} other { ({model})}} in {unit} from {from} to {to}? Your hard spending cap of {cap} counts its tasks at this price, so it will let more through.',
  'capChange.priceNone': 'no price',
  /** What a sentence shows for a value that is empty (localized-numbers.ts `textParams`). */
  'value.none': '(none)',
  'capChange.priceEach': '{amount} per {basis, select, megapixel {megapixel} other {image}}',
  'capChange.confirmPrice': 'Change the Price',
  'capChange.keepPrice': 'Keep the Price',
  'overCap.detail':
    'Send {tasks} tasks past the cap this once? The cap stays as it is for every later request.',
  'overCap.send': 'Send Anyway',
  'overCap.keep': 'Don’t Send',

  // What Pictor left out of a saved image's metadata because it carried a held key
  // (ImageRecord.keyRemoved): one sentence for the viewer, task details and `pictor info`, one
  // for an export's summary (shared/i18n/key-removed.ts).
  'image.keyRemoved': 'Metadata removed',
  'image.keyRemoved.metadata':
    'When Pictor saved this image, it removed the part of its metadata that carried your API key. The pixels are as the service sent them.',
  'image.keyRemoved.credentials':
    'When Pictor saved this image, it removed the part of its metadata that carried your API key, and its Content Credentials with it (they would no longer match the file). The pixels are as the service sent them.',
  // An export's summary (the window's and `pictor export`'s): how many of its images are so.
  'image.keyRemoved.exported':
    '{count, plural, one {# image in the archive is without the metadata that carried your API key: Pictor removed it when it saved the image.} other {# images in the archive are without the metadata that carried your API key: Pictor removed it when it saved them.}}',

  // Start-up (app-main.ts).
  'app.settingsProblem': 'Some of your settings could not be read.',
  'app.startFailed': 'Pictor could not start',
  'app.startFailedDetail': '{reason}\n\nNothing was lost. The log file is in {folder}.',
} as const;

/** The intersection of `Parts`' types: what {@link merged} makes of them. */
type Merged<Parts extends readonly object[]> = Parts extends readonly [
  infer First,
  ...infer Rest extends readonly object[],
]
  ? First & Merged<Rest>
  : unknown;

/**
 * One object of every part's keys, as a literal's spreads would make it. Object.assign, not
 * spreads: V8 ran the 21 spreads this was (about 660 keys) at some 10 ms of CPU, the largest single cost
 * of a one-record CLI command that loads the catalogue (`npm run bench -- --only cli-start`),
 * where Object.assign takes well under 1 ms.
 */
function merged<const Parts extends readonly object[]>(...parts: Parts): Merged<Parts> {
  return Object.assign({}, ...parts) as Merged<Parts>;
}

export const mainMessages = merged(
  ownMessages,
  generalErrors,
  serviceErrors,
  settingsErrors,
  galleryErrors,
  libraryErrors,
  costErrors,
  submitErrors,
  serviceTestErrors,
  triageErrors,
  templateErrors,
  workflowErrors,
  templateFileErrors,
  promptErrors,
  paramErrors,
  templateStoreErrors,
  templateRunErrors,
  compareErrors,
  inputErrors,
  providerInputErrors,
  editErrors,
  lineageErrors,
);

export type MainMessageKey = keyof typeof mainMessages;

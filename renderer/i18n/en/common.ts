/** English strings shared by every screen. */
export const common = {
  'app.name': 'Pictor',
  'app.skipToContent': 'Skip to content',
  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.details': 'Details',
  'common.dismiss': 'Dismiss',
  'common.save': 'Save',
  'common.tryAgain': 'Try again',
  'error.noBridge':
    'Pictor’s window lost its connection to the app. Close the window and open it again.',
  'error.view':
    'This part of Pictor could not be shown. Try again; if it keeps happening, open the logs from Settings.',
  'format.unknownDate': 'unknown date',
  'format.unknown': '—',
  'error.unexpected':
    'Something went wrong. Try again; if it keeps happening, open the logs from Settings.',
} as const;

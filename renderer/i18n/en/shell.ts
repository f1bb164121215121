/** English strings of the window frame: navigation, banners, toasts, announcements. */
export const shell = {
  'nav.label': 'Main',
  'nav.tasks': 'Tasks',
  'nav.gallery': 'Gallery',
  'nav.settings': 'Settings',
  'nav.activeTasks': '{count, plural, one {# task running} other {# tasks running}}',
  'banner.demo.label': 'Demo service',
  'banner.demo.text':
    'You’re using the built-in demo service — images are generated locally on this computer. Add your API key to use your service.',
  'banner.demo.textUrl':
    'You’re using the built-in demo service — images are generated locally on this computer. Add your service’s address to use it.',
  'banner.demo.action': 'Add your API key',
  'banner.demo.actionUrl': 'Add the service address',
  'banner.demo.dismiss': 'Hide this notice',
  'banner.notice.label': 'Notice',
  'banner.notice.dismiss': 'Hide this notice',
  'banner.notice.windowRecovered':
    'Pictor’s window stopped unexpectedly and was reloaded. Your tasks kept running and nothing was lost.',
  'banner.notice.notificationsFailed':
    'Your system did not show Pictor’s notification (unsigned macOS builds and some Linux desktops cannot). Finished tasks still appear here; you can turn notifications off in Settings.',
  'banner.notice.thumbnailsUnavailable':
    'Pictor could not load its image component, so new images get no thumbnails or size checks. They are still saved in the gallery folder; restarting or reinstalling Pictor may fix this.',
  'banner.offline.label': 'Offline',
  'banner.offline.text':
    'You’re offline. Running tasks will carry on by themselves when the connection is back; the gallery works as usual.',
  'banner.key.label': 'API key',
  'banner.key.action': 'Open Settings',
  'toasts.label': 'Errors',
  'toasts.confirmationsLabel': 'Done',
  'toasts.savedAs': 'Saved “{file}” in {folder}.',
  'announce.completed': 'Task completed: {prompt}',
  'announce.failed': 'Task failed: {reason}',
  'announce.submitFailed': 'Task not submitted: {reason}',
  'announce.offline': 'You’re offline. Tasks will resume when the connection is back.',
  'announce.online': 'Back online.',
} as const;

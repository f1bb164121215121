/** English strings of the window frame: navigation, banners, the status area, announcements. */
export const shell = {
  'nav.label': 'Main',
  'nav.tasks': 'Tasks',
  'nav.gallery': 'Gallery',
  'nav.costs': 'Costs',
  'nav.settings': 'Settings',
  'nav.withShortcut': '{label} ({keys})',
  'keys.ctrlPlus': 'Ctrl+{key}',
  'nav.activeTasks': '{count, plural, one {# task running} other {# tasks running}}',
  'banner.demo.label': 'Demo service',
  'banner.demo.connectText':
    'You’re using the built-in demo service — images are generated locally on this computer. Connect your own image service to use it.',
  'banner.demo.dismiss': 'Hide this notice',
  'banner.notice.label': 'Notice',
  'banner.notice.dismiss': 'Hide this notice',
  'banner.notice.windowRecovered':
    'Pictor’s window stopped unexpectedly and was reloaded. Your tasks kept running and nothing was lost.',
  'banner.notice.notificationsFailed':
    'Your system did not show Pictor’s notification (unsigned macOS builds and some Linux desktops cannot). Finished tasks still appear here; you can turn notifications off in Settings.',
  'banner.notice.thumbnailsUnavailable':
    'Pictor could not start its image renderer, so new images are saved without thumbnails for now; their size is still checked. The thumbnails are made the next time the gallery is shown with the renderer working. Restarting Pictor may fix this.',
  // The library holds tasks a newer Pictor wrote (host/desktop-start.ts, history's count).
  'banner.notice.newerTasksKept':
    'This library holds tasks a newer version of Pictor made (a state or a service this version does not know). They are not shown here and are kept as they are; open them in the newer Pictor.',
  'banner.offline.label': 'Offline',
  'banner.offline.text':
    'You’re offline. Running tasks will carry on by themselves when the connection is back; the gallery works as usual.',
  'banner.refused.label': 'Request not sent',
  'banner.refused.auth':
    'The service refused the API key, so nothing was created. What you typed is still in the form: check the key in Settings, then generate again.',
  'banner.refused.credits':
    'The account has no credits left, so nothing was created. What you typed is still in the form: add credits in the service’s billing console, then generate again.',
  'banner.refused.network':
    'Pictor could not reach the service, so nothing was sent. What you typed is still in the form: check the connection and the service address, then generate again.',
  'banner.refused.config':
    'Pictor could not send the request with the key and address in Settings, so nothing was sent. What you typed is still in the form: check Settings, then generate again.',
  'banner.refused.count': 'Refused {count} times.',
  'banner.refused.action': 'Open Settings',
  'banner.refused.dismiss': 'Hide this notice',
  'banner.key.label': 'API key',
  'banner.key.action': 'Open Settings',
  'banner.keyWait.label': 'Waiting for your key',
  'banner.keyWait.text':
    'Pictor is waiting for {store} to unlock your saved API key; your tasks, the gallery and exports show once it answers. If your system asked for a password, its window may be hidden behind other windows.',
  'toasts.label': 'Errors',
  'toasts.confirmationsLabel': 'Done',
  'toasts.savedAs': 'Saved “{file}” in {folder}.',
  'status.progress': '{done} of {total}',
  'status.favouriting': '{favourite, select, yes {Picking…} other {Unflagging…}}',
  'status.retrying': 'Retrying tasks…',
  'status.submittingAgain': 'Submitting tasks again…',
  'announce.completed': 'Task completed: {prompt}',
  'announce.failed': 'Task failed: {reason}',
  'announce.submitFailed': 'Task not submitted: {reason}',
  'announce.offline': 'You’re offline. Tasks will resume when the connection is back.',
  'announce.online': 'Back online.',
  'trash.progress.restoreImages':
    '{total, plural, one {Putting back the image…} other {Putting back images: {done, number} of {total, number}…}}',
  'trash.progress.restoreTasks':
    '{total, plural, one {Putting back the task…} other {Putting back tasks: {done, number} of {total, number}…}}',
  'trash.progress.deleteImages':
    '{total, plural, one {Moving the image to the trash…} other {Moving images to the trash: {done, number} of {total, number}…}}',
  'trash.progress.deleteTasks':
    '{total, plural, one {Removing the task…} other {Removing tasks: {done, number} of {total, number}…}}',
  'export.progress':
    '{total, plural, one {Copying the image…} other {Copying images: {done, number} of {total, number}…}}',
  'trash.quitting':
    'Pictor quits as soon as this is done. If it is cut short, the rest is finished at the next start.',
  'trash.job.deleteImages':
    '{count, plural, one {Moving the image to the trash…} other {Moving # images to the trash…}}',
  'trash.job.deleteTasks': '{count, plural, one {Removing the task…} other {Removing # tasks…}}',
  'trash.job.restoreImages':
    '{count, plural, one {Putting the image back…} other {Putting # images back…}}',
  'trash.job.restoreTasks':
    '{count, plural, one {Putting the task back…} other {Putting # tasks back…}}',
  'update.label': 'Update',
  'update.available': 'Pictor {version} is available.',
  'update.availableNotify':
    'Pictor {version} is available. Download it now, or later from Settings.',
  'update.availableLinux':
    'Pictor {version} is available. Install it with your package manager or from the download page: Pictor’s Linux packages do not update themselves.',
  'update.availableWindows':
    'Pictor {version} is available. This copy cannot update itself (it is not signed, so Windows could not check who made an update): download the new installer and run it.',
  'update.availableMac':
    'Pictor {version} is available. This copy cannot update itself (it is not signed with Pictor’s Developer ID): download the new version and put it in Applications in place of this one.',
  'update.getVersion': 'Get Pictor {version}',
  'update.downloading':
    'Downloading Pictor {version} in the background ({progress, number, percent}).',
  'update.ready':
    'Pictor {version} is ready to install. Running tasks are not lost: they resume by themselves after the restart.',
  'update.restart': 'Restart to update',
  'update.download': 'Download',
  'update.later': 'Later',
  'update.notes': 'What’s new in {version}',
  'update.problem.offline': 'Pictor could not reach its update server; it will try again tomorrow.',
  'update.problem.feed_missing':
    'The update server has no update information for Pictor right now; it will try again tomorrow.',
  'update.problem.feed_invalid':
    'The update server’s information could not be read, so nothing was downloaded.',
  'update.problem.prerelease':
    'The update server offered a prerelease, which this version of Pictor does not install, so nothing was downloaded.',
  'update.problem.checksum':
    'The downloaded update did not match its checksum, so it was deleted and nothing was installed.',
  'update.problem.installer_version':
    'The downloaded update was not the version offered, so it was deleted and nothing was installed.',
  'update.problem.oversize':
    'The download was larger than the update server said it would be, so it was stopped and nothing was installed.',
  'update.problem.install_failed':
    'The update could not be installed; Pictor keeps running this version.',
  'update.problem.failed': 'Pictor could not check for updates; it will try again tomorrow.',
  'update.unavailable.development':
    'Updates are not available in a development or test copy of Pictor.',
  'update.unavailable.not_installed':
    'Updates are not available in this copy of Pictor: it was not installed from a release.',
} as const;

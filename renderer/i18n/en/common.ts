/** English strings shared by every screen. */
export const common = {
  'app.name': 'Pictor',
  'app.skipToContent': 'Skip to content',
  'common.cancel': 'Cancel',
  'common.close': 'Close',
  'common.details': 'Details',
  'common.dismiss': 'Dismiss',
  'common.save': 'Save',
  'service.pictor': 'Image task service',
  'filter.service.label': 'Service',
  'filter.service.all': 'All services',
  'common.tryAgain': 'Try again',
  'common.loading': 'Loading…',
  'error.noBridge':
    'Pictor’s window lost its connection to the app. Close the window and open it again.',
  'error.view':
    'This part of Pictor could not be shown. Try again; if it keeps happening, open the logs from Settings.',
  'format.unknownDate': 'unknown date',
  'format.unknown': '—',
  'common.credentials.title': 'Content Credentials',
  'common.credentials.signedBy': 'Signed by {signer}',
  'common.credentials.unverified': 'Unverified signer: “{signer}” (not on Pictor’s trust list)',
  'common.credentials.aiGenerated': 'AI-generated',
  'common.credentials.trusted':
    'The file is exactly as {signer} signed it, and {signer} is on the list of signers Pictor trusts.',
  'common.credentials.untrusted':
    'The file is exactly as it was signed, but the signer is not on the list Pictor trusts: the name is only what the signer says about itself.',
  'common.credentials.generator': 'Made with {generator}.',
  'common.credentials.tampered': 'Tampered: the credentials do not check out',
  'common.credentials.tamperedMeaning':
    'The file or its credentials changed after they were signed, so they say nothing reliable about where it came from.',
  'common.credentials.claimedSigner': 'The credentials name {signer} as their signer.',
  'common.credentials.codes': 'What the check found (C2PA’s codes):',
  'common.credentials.mark':
    '{verdict, select, trusted {Content Credentials from a trusted signer} unverified {Content Credentials from an unverified signer} tampered {Content Credentials, tampered} other {Content Credentials that could not be read}}',
  'common.credentials.unreadable': 'Present, but they could not be read',
  'common.credentials.unreadableMeaning':
    'Pictor kept the file exactly as it came, but could not read its credentials within its limits.',
  'common.credentials.remoteMeaning':
    'Pictor kept the file exactly as it came; its credentials are kept online, at an address the file names, and Pictor does not fetch them.',
  'common.credentials.none': 'None',
  'common.credentials.noneMeaning': 'Nothing in the file says where it came from.',
  'error.unexpected':
    'Something went wrong. Try again; if it keeps happening, open the logs from Settings.',
  /** Filters folded behind one button in a small window (components/header-panel.tsx). */
  'common.filters.button': 'Filters',
  /** That button's name to assistive technology: its word and how many filters are in use. */
  'common.filters.inUse':
    '{count, plural, =0 {Filters} one {Filters, # in use} other {Filters, # in use}}',
} as const;

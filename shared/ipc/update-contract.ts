/**
 * The `updates:` requests (app/updates): the page can only ask. No input names a version, a URL
 * or a path; main decides what is downloaded and installed, and which address a download opens.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { updateStateSchema } from '../domain/update-state';

const none = lazySchema(() => z.undefined());

export const updateRequests = {
  'updates:getState': channel(() => ({ input: none(), output: updateStateSchema() })),
  'updates:check': channel(() => ({ input: none(), output: updateStateSchema() })),
  /** Downloads the version on offer, when the user chose to be told first. */
  'updates:download': channel(() => ({ input: none(), output: updateStateSchema() })),
  /** Quits and installs the downloaded update; unfinished tasks resume in the new version. */
  'updates:restart': channel(() => ({ input: none(), output: z.void() })),
  /**
   * Opens the download of a version this copy cannot install (`canOpenDownload`): the address
   * main took from the feed (app/updates/download-link.ts), never one the page names.
   */
  'updates:openDownload': channel(() => ({ input: none(), output: z.void() })),
} as const;

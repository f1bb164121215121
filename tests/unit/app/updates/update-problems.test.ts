/** electron-updater's, Node's and Chromium's failures, each as one problem code. */
import { describe, expect, it } from 'vitest';
import {
  classifyUpdateError,
  describeUpdateError,
} from '../../../../electron/app/updates/update-problems';

const coded = (code: string, message = code, extra: object = {}): Error =>
  Object.assign(new Error(message), { code, ...extra });

describe('classifyUpdateError', () => {
  it.each([
    [coded('ERR_CHECKSUM_MISMATCH', 'sha512 checksum mismatch, expected x, got y'), 'checksum'],
    [
      coded('ERR_UPDATER_DOWNLOAD_OVER_SIZE', 'The installer sent more than 40000 bytes'),
      'oversize',
    ],
    [
      coded('ERR_UPDATER_INSTALLER_VERSION', 'The installer holds 0.0.9, not the version 0.2.0'),
      'installer_version',
    ],
    [
      coded('ERR_UPDATER_CHANNEL_FILE_NOT_FOUND', 'Cannot find channel "latest.yml"'),
      'feed_missing',
    ],
    [Object.assign(new Error('HttpError: 403 Forbidden'), { statusCode: 403 }), 'feed_missing'],
    [coded('ERR_UPDATER_INVALID_UPDATE_INFO', 'Cannot parse update info'), 'feed_invalid'],
    [coded('ERR_UPDATER_INVALID_VERSION'), 'feed_invalid'],
    [coded('ERR_UPDATER_PRERELEASE_FOR_STABLE', 'a prerelease for a stable app'), 'prerelease'],
    [Object.assign(new TypeError('fetch failed'), { cause: coded('ECONNREFUSED') }), 'offline'],
    [coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'), 'offline'],
    [coded('ENOTFOUND', 'getaddrinfo ENOTFOUND updates.example'), 'offline'],
    [new Error('net::ERR_INTERNET_DISCONNECTED'), 'offline'],
    [new Error('net::ERR_NAME_NOT_RESOLVED'), 'offline'],
    [Object.assign(new Error('HttpError: 500'), { statusCode: 500 }), 'failed'],
    [new Error('something else'), 'failed'],
    ['a string', 'failed'],
    [null, 'failed'],
  ])('%s → %s', (error, problem) => {
    expect(classifyUpdateError(error)).toBe(problem);
  });
});

describe('describeUpdateError', () => {
  it('keeps the code, the status and the first line only, shortened', () => {
    const error = Object.assign(new Error(`first line ${'x'.repeat(1_000)}\nrawData: secret-ish`), {
      code: 'ERR_UPDATER_INVALID_UPDATE_INFO',
      statusCode: 200,
    });
    const text = describeUpdateError(error);
    expect(text.startsWith('ERR_UPDATER_INVALID_UPDATE_INFO HTTP 200 first line')).toBe(true);
    expect(text).not.toContain('rawData');
    expect(text.length).toBeLessThan(400);
  });
});

/** What the app's update state says to the user: Settings' status line and the update banner. */
import type {
  UpdateProblem,
  UpdateState,
  UpdateUnavailableReason,
} from '../../shared/domain/update-state';
import { t, type MessageKey } from '../i18n';
import type { UpdatePlatform } from './platform';

const PROBLEM_TEXT: Record<UpdateProblem, MessageKey> = {
  offline: 'update.problem.offline',
  feed_missing: 'update.problem.feed_missing',
  feed_invalid: 'update.problem.feed_invalid',
  prerelease: 'update.problem.prerelease',
  checksum: 'update.problem.checksum',
  installer_version: 'update.problem.installer_version',
  oversize: 'update.problem.oversize',
  install_failed: 'update.problem.install_failed',
  failed: 'update.problem.failed',
};

const UNAVAILABLE_TEXT: Record<UpdateUnavailableReason, MessageKey> = {
  development: 'update.unavailable.development',
  not_installed: 'update.unavailable.not_installed',
};

/** Why a copy that cannot install updates cannot, on each system (update-capability.ts). */
const CANNOT_INSTALL_TEXT: Record<UpdatePlatform, MessageKey> = {
  mac: 'update.availableMac',
  windows: 'update.availableWindows',
  linux: 'update.availableLinux',
};

/** Settings' hint for such a copy. */
export const CANNOT_INSTALL_HINT: Record<UpdatePlatform, MessageKey> = {
  mac: 'settings.updates.mac',
  windows: 'settings.updates.windows',
  linux: 'settings.updates.linux',
};

/** The sentence for a version on offer: what the user can do about it here. */
export function offerText(state: UpdateState, platform: UpdatePlatform): string {
  const version = state.version ?? '';
  if (!state.canInstall) return t(CANNOT_INSTALL_TEXT[platform], { version });
  return t('update.availableNotify', { version });
}

/** One sentence for the state (Settings' status line); empty when there is nothing to say. */
export function updateSentence(state: UpdateState, platform: UpdatePlatform): string {
  const version = state.version ?? '';
  switch (state.status) {
    case 'unavailable':
      return t(UNAVAILABLE_TEXT[state.reason ?? 'development']);
    case 'checking':
      return t('settings.updates.checking');
    case 'idle':
      return state.lastCheckedAt === undefined ? '' : t('settings.updates.upToDate');
    case 'available':
      return offerText(state, platform);
    case 'downloading':
      return t('update.downloading', { version, progress: state.progress ?? 0 });
    case 'ready':
      return t('update.ready', { version });
    case 'error':
      return t(PROBLEM_TEXT[state.problem ?? 'failed']);
  }
}

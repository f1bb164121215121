/**
 * A service's state at a glance, from what the page knows of its key (never the key) and its
 * address: Settings' index and headings, the compose form's service list and its missing-key
 * notice all read it the same way.
 */
import type { KeyStatus, KeyStatuses } from '../../shared/domain/key-status';
import { PROVIDER_IDS, worksWithoutKey, type ProviderId } from '../../shared/domain/providers';
import type { MessageKey } from '../i18n';

/**
 * `checked`: a key its service accepted when last asked. `unchecked`: a key stored without a
 * check (or before checks were kept). `refused`: a key its service refused when last asked.
 * `attention`: a key is stored but cannot be used now (another keyring, not decryptable).
 * `none`: no key. `keyless`: no key, for a service that works with none (a local ComfyUI).
 * `demo`: today's contract with no address, whose tasks go to the built-in demo. `demoNoKey`:
 * today's contract with an address but no key ready, whose tasks go to the built-in demo too.
 * `offline`: a key its service accepted when last asked, while the computer is offline.
 * `unreachable`: a service its tasks would be sent to (a key stored, or none needed) whose last
 * call could not reach it while the computer is online (no such host, connection refused, a TLS
 * failure), until it answers again. `waiting`: a stored key waiting for the OS's storage
 * ({@link waitsForStorage}): its tasks go to the service's address and wait for the key there
 * (main's AppCredentials.endpointOf, KeyVault.readKey), never to the demo.
 */
export type ServiceKeyState =
  | 'checked'
  | 'unchecked'
  | 'refused'
  | 'attention'
  | 'none'
  | 'keyless'
  | 'demo'
  | 'demoNoKey'
  | 'offline'
  | 'unreachable'
  | 'waiting';

export const SERVICE_STATE_LABELS: Readonly<Record<ServiceKeyState, MessageKey>> = {
  checked: 'settings.serviceState.checked',
  unchecked: 'settings.serviceState.unchecked',
  refused: 'settings.serviceState.refused',
  attention: 'settings.serviceState.attention',
  none: 'settings.serviceState.none',
  keyless: 'settings.serviceState.keyless',
  demo: 'settings.serviceState.demo',
  demoNoKey: 'settings.serviceState.demoNoKey',
  offline: 'settings.serviceState.offline',
  unreachable: 'settings.serviceState.unreachable',
  // The banner's words (shell/banners.tsx): one name for the wait wherever it is said.
  waiting: 'banner.keyWait.label',
};

/**
 * The same states as a choice to send new tasks to is named (the compose form's and compare's
 * Service boxes): `{service} (…)`, or null for the service's name alone.
 */
export const SERVICE_CHOICE_LABELS: Readonly<Record<ServiceKeyState, MessageKey | null>> = {
  checked: null,
  unchecked: null,
  refused: null,
  attention: 'compose.service.noKey',
  none: 'compose.service.noKey',
  keyless: null,
  demo: 'compose.service.demo',
  demoNoKey: 'compose.service.demoNoKey',
  offline: null,
  unreachable: 'compose.service.unreachable',
  waiting: 'compose.service.waiting',
};

/** States whose key cannot be stored until the user acts: a key is there, but unusable now. */
const UNUSABLE_STORED = new Set<KeyStatus['state']>(['backend_changed', 'decrypt_failed']);

/**
 * The state of a service given its key status (null until it has come); `demo`: today's contract
 * without an address, whose tasks go to the built-in demo whatever its key.
 */
export function serviceKeyState(
  status: KeyStatus | null | undefined,
  demo = false,
  provider?: ProviderId,
): ServiceKeyState | null {
  if (demo) return 'demo';
  if (!status) return null;
  if (waitsForStorage(status)) return 'waiting';
  if (status.state === 'ready') {
    if (status.check?.outcome === 'accepted') return 'checked';
    return status.check?.outcome === 'refused' ? 'refused' : 'unchecked';
  }
  if (UNUSABLE_STORED.has(status.state) && status.fingerprint) return 'attention';
  return worksWithoutKey(provider) ? 'keyless' : 'none';
}

/** Whether a service in `state` has no key its tasks could be sent with. */
export function lacksKey(state: ServiceKeyState | null): boolean {
  return state === 'none' || state === 'attention';
}

/**
 * The status of the first service whose stored key waits for the OS's storage (a keychain prompt
 * nobody has answered yet: the app's start does not wait for it), or null. Main says it as
 * `not_ready` with the stored key's fingerprint (the storage's first answer has not come) or as
 * `ready` and `decrypting` (it asks again while decrypting the key); meanwhile the task list,
 * the gallery and every export or copy that could show a key wait (core/secrets
 * held-key-scrub.ts), and the window says why (shell/banners.tsx). With no key stored nothing
 * waits, and the storage's answer ends it (main tells the page each key's new status).
 */
export function keyStorageWait(statuses: KeyStatuses | null): KeyStatus | null {
  if (!statuses) return null;
  const waiting = PROVIDER_IDS.find((id) => waitsForStorage(statuses[id]));
  return waiting ? statuses[waiting] : null;
}

/**
 * Whether `status` is a stored key waiting for the OS's storage ({@link keyStorageWait}): `not_ready`
 * with the stored key's fingerprint, or `ready` and `decrypting`.
 */
function waitsForStorage(status: Pick<KeyStatus, 'state' | 'fingerprint' | 'decrypting'>): boolean {
  if (status.state === 'ready') return status.decrypting === true;
  return status.state === 'not_ready' && status.fingerprint !== null;
}

/**
 * Whether new tasks may count on `status`'s key: ready, or stored and waiting for the storage
 * (tasks sent meanwhile wait for it: KeyVault.readKey). Main's AppCredentials.endpointOf counts
 * the same keys.
 */
export function keyThere(status: KeyStatus | null | undefined): boolean {
  return status != null && (status.state === 'ready' || waitsForStorage(status));
}

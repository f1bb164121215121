/**
 * Where a hardening suite keeps its history, gallery and journals: RAM-backed /dev/shm when there
 * is one, else os.tmpdir(). Every history write is fsynced, and on a shared 2-core VM a contended
 * disk makes an fsync take tens of ms, which a suite of hundreds of writes pays in full.
 *
 * What these suites show does not depend on the disk: the fault suites judge fault handling (a
 * slow disk's backlog would time requests out, which is no fault the service injected; disk
 * trouble is section 2's subject), and the kill suites a process killed by SIGKILL, whose writes
 * the kernel keeps whatever the filesystem (the page cache outlives the process; a power cut,
 * which it does not, is no case of theirs). Set PICTOR_FAULTS_ON_DISK=1 to use os.tmpdir().
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';

export function scratchRoot(): string {
  const shm = '/dev/shm';
  return process.env['PICTOR_FAULTS_ON_DISK'] !== '1' && existsSync(shm) ? shm : tmpdir();
}

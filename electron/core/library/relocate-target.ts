/**
 * Which folders a gallery move may not go to: the home folder itself and every folder that
 * contains it (`/`, `/home`, `C:\`, `C:\Users`), system folders, and the app's data folder
 * (or anything inside it or containing it). The platform is a parameter so each platform's
 * rules are tested on any machine; paths compare without case on Windows and macOS.
 */
import { posix, win32 } from 'node:path';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';

/** What the checks need to know about the machine (ports, so tests can pass temp folders). */
export interface MoveSurroundings {
  /** The user's home folder (`os.homedir()`). */
  readonly home: string;
  /** The app's data folder (history, settings, key vault). */
  readonly dataDir?: string;
  readonly platform: NodeJS.Platform;
}

/** Folders refused together with everything inside them. */
const POSIX_SYSTEM_TREES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/snap',
  '/sys',
  '/usr',
  '/var/cache',
  '/var/lib',
  '/var/log',
  '/var/run',
  '/var/spool',
];
const DARWIN_SYSTEM_TREES = [
  '/System',
  '/Library',
  '/Applications',
  '/cores',
  '/private/etc',
  '/private/var/db',
  '/private/var/log',
];
/** Folders refused themselves (a gallery inside them is fine: `/tmp/x`, `/Volumes/Disk/x`). */
const POSIX_SYSTEM_FOLDERS = [
  '/home',
  '/Users',
  '/root',
  '/tmp',
  '/var',
  '/var/tmp',
  '/opt',
  '/srv',
  '/mnt',
  '/media',
  '/Volumes',
  '/private',
  '/private/var',
  '/private/tmp',
];
const WINDOWS_SYSTEM_TREES = ['Windows', 'Program Files', 'Program Files (x86)', 'ProgramData'];

function flavour(platform: NodeJS.Platform): typeof posix {
  return platform === 'win32' ? win32 : posix;
}

/** Comparable form: resolved, and lower case where the file system ignores case. */
function key(path: string, platform: NodeJS.Platform): string {
  const resolved = flavour(platform).resolve(path);
  return platform === 'win32' || platform === 'darwin' ? resolved.toLowerCase() : resolved;
}

/** `child` is `parent` or inside it. */
function within(parent: string, child: string, platform: NodeJS.Platform): boolean {
  const path = flavour(platform);
  const rel = path.relative(key(parent, platform), key(child, platform));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function isSystemFolder(target: string, platform: NodeJS.Platform): boolean {
  if (platform === 'win32') {
    const { root } = win32.parse(win32.resolve(target));
    if (key(target, platform) === key(root, platform)) return true;
    return WINDOWS_SYSTEM_TREES.some((name) => within(win32.join(root, name), target, platform));
  }
  const trees =
    platform === 'darwin' ? [...POSIX_SYSTEM_TREES, ...DARWIN_SYSTEM_TREES] : POSIX_SYSTEM_TREES;
  if (key(target, platform) === '/') return true;
  if (trees.some((tree) => within(tree, target, platform))) return true;
  return POSIX_SYSTEM_FOLDERS.some((folder) => key(folder, platform) === key(target, platform));
}

/**
 * Why `target` cannot hold the gallery, as a sentence naming it, or `null` when it can.
 * Call it with the folder as chosen and again with its real path (a link to `/etc` is `/etc`).
 */
export function refusedMoveTarget(target: string, around: MoveSurroundings): Sentence | null {
  const { platform } = around;
  const shown = flavour(platform).resolve(target);
  if (within(target, around.home, platform)) {
    return key(target, platform) === key(around.home, platform)
      ? sentence('error.gallery.moveIntoHome', { path: shown })
      : sentence('error.gallery.moveAroundHome', { path: shown });
  }
  if (isSystemFolder(target, platform)) {
    return sentence('error.gallery.moveSystemFolder', { path: shown });
  }
  const data = around.dataDir;
  if (data !== undefined && (within(data, target, platform) || within(target, data, platform))) {
    return sentence('error.gallery.moveDataFolder', {
      path: shown,
      data: flavour(platform).resolve(data),
    });
  }
  return null;
}

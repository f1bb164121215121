/** Which folders a gallery move refuses, per platform. */
import { describe, expect, it } from 'vitest';
import {
  refusedMoveTarget,
  type MoveSurroundings,
} from '../../../../electron/core/library/relocate-target';
import { englishText } from '../../../../shared/i18n/sentence';

const linux: MoveSurroundings = {
  home: '/home/ana',
  dataDir: '/home/ana/.config/Pictor',
  platform: 'linux',
};
const mac: MoveSurroundings = {
  home: '/Users/ana',
  dataDir: '/Users/ana/Library/Application Support/Pictor',
  platform: 'darwin',
};
const windows: MoveSurroundings = {
  home: 'C:\\Users\\ana',
  dataDir: 'C:\\Users\\ana\\AppData\\Roaming\\Pictor',
  platform: 'win32',
};

describe('refused', () => {
  it.each([
    [linux, '/home/ana', /home folder itself/],
    [linux, '/home/ana/', /home folder itself/],
    [linux, '/home', /contains your home folder/],
    [linux, '/', /contains your home folder/],
    [linux, '/etc', /system folder/],
    [linux, '/usr/share/pictor', /system folder/],
    [linux, '/var/lib/pictor', /system folder/],
    [linux, '/tmp', /system folder/],
    [linux, '/home/ana/.config/Pictor', /keeps its own data/],
    [linux, '/home/ana/.config/Pictor/gallery', /keeps its own data/],
    [linux, '/home/ana/.config', /keeps its own data/],
    [mac, '/Users/ana', /home folder itself/],
    [mac, '/users/ANA', /home folder itself/],
    [mac, '/Users', /contains your home folder/],
    [mac, '/System/Library/x', /system folder/],
    [mac, '/Applications', /system folder/],
    [mac, '/Users/ana/Library/Application Support/pictor/g', /keeps its own data/],
    [windows, 'C:\\Users\\ana', /home folder itself/],
    [windows, 'c:\\users\\ANA\\', /home folder itself/],
    [windows, 'C:\\Users', /contains your home folder/],
    [windows, 'C:\\', /contains your home folder/],
    [windows, 'D:\\', /system folder/],
    [windows, 'C:\\Windows\\Temp\\g', /system folder/],
    [windows, 'c:\\program files\\Pictor', /system folder/],
    [windows, 'C:\\Program Files (x86)', /system folder/],
    [windows, 'C:\\ProgramData\\Pictor', /system folder/],
    [windows, 'C:\\Users\\ana\\AppData\\Roaming\\Pictor\\g', /keeps its own data/],
  ])('%#: %s', (around, target, reason) => {
    const refusal = refusedMoveTarget(target, around);
    expect(refusal).not.toBeNull();
    expect(englishText(refusal!)).toMatch(reason);
  });
});

describe('allowed', () => {
  it.each([
    [linux, '/home/ana/Pictures/Pictor'],
    [linux, '/tmp/gallery'],
    [linux, '/media/ana/usb/Pictor'],
    [linux, '/home/ana/.config/Pictor-gallery'],
    [mac, '/Users/ana/Pictures/Pictor'],
    [mac, '/Volumes/Backup/Pictor'],
    [windows, 'C:\\Users\\ana\\Pictures\\Pictor'],
    [windows, 'D:\\Photos\\Pictor'],
  ])('%#: %s', (around, target) => {
    expect(refusedMoveTarget(target, around)).toBeNull();
  });
});

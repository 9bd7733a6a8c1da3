// A second local user, to own planted folders and files as an attacker on the same machine would.
// Only root can make one (useradd); other runs skip those tests, saying so. Each test file makes its
// own, under a name of its own (files run side by side), and removes it when its tests end.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';

const NAME = `booking-x${process.pid}-${randomBytes(3).toString('hex')}`;

export interface OtherUser {
  name: string;
  uid: number;
  gid: number;
}

let made: OtherUser | null | undefined;

/**
 * The second user (made once per test file, removed after its tests), or null when this run is not
 * root or cannot make one. Call it at the top level of a test file (it registers the removal).
 */
export function otherUser(): OtherUser | null {
  if (made !== undefined) return made;
  made = null;
  if (process.getuid?.() !== 0) return made;
  try {
    if (!exists()) execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], { stdio: 'ignore' });
  } catch {
    // The lookup below decides.
  }
  afterAll(() => {
    if (exists()) execFileSync('userdel', [NAME], { stdio: 'ignore' });
  });
  try {
    const uid = Number(execFileSync('id', ['-u', NAME], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', NAME], { encoding: 'utf8' }).trim());
    made = { name: NAME, uid, gid };
  } catch {
    made = null;
  }
  return made;
}

function exists(): boolean {
  try {
    execFileSync('id', ['-u', NAME], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why a test that needs the second user is skipped (in the title of its group, helpers/skip.ts). */
export const NO_OTHER_USER = 'making a second local user needs root (useradd); these tests run only as root';

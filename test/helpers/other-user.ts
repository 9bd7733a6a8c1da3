// A second local user, to own planted folders and files as an attacker on the same machine would.
// Only root can make one (useradd); other runs skip those tests, saying so.
import { execFileSync } from 'node:child_process';

const NAME = 'booking-intruder';

export interface OtherUser {
  name: string;
  uid: number;
  gid: number;
}

let made: OtherUser | null | undefined;

/** The second user (made once, then reused), or null when this run is not root or cannot make one. */
export function otherUser(): OtherUser | null {
  if (made !== undefined) return made;
  made = null;
  if (process.getuid?.() !== 0) return made;
  try {
    if (!exists()) execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], { stdio: 'ignore' });
  } catch {
    // Another test file made it at the same moment: the lookup below decides.
  }
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

/** Why a test that needs the second user was skipped (printed once by the test file). */
export const NO_OTHER_USER = 'skipped: making a second local user needs root (useradd); these tests run only as root';

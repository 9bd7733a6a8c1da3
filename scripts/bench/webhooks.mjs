// @ts-check
// The webhook rows of `npm run bench`: verifying a big body against openssl, and many captures
// against one.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, median, mustSucceed, paired, runOnce } from './measure.mjs';
import { BODY_MIB, CAPTURES, SECRET } from './kit.mjs';
import { writeBigBody, writeCaptures } from './fixtures.mjs';

/**
 * `webhook verify` of a 256 MiB body against `openssl dgst -sha256 -hmac`.
 * @param {import('./kit.mjs').Kit} kit
 */
export async function rowVerify(kit) {
  const { note, record, rounds, booking, baseEnv, have, skipped, tmp } = kit;
  if (!have('openssl')) return void skipped.push('webhook verify vs openssl: openssl not installed');
  note(`verify: ${BODY_MIB} MiB body, booking webhook verify vs openssl dgst -sha256 -hmac (${rounds.verify} rounds)`);
  const body = join(tmp, 'body.bin');
  const hex = writeBigBody(body, BODY_MIB, SECRET);
  const runs = {
    booking: booking(baseEnv, 'webhook', 'verify', body, '--signature', `sha256=${hex}`, '--secret', SECRET),
    openssl: { cmd: 'openssl', args: ['dgst', '-sha256', '-hmac', SECRET, body], env: baseEnv },
  };
  const ours = mustSucceed('booking webhook verify', runOnce(runs.booking, { capture: true })).stdout.toString();
  if (!ours.startsWith('authentic\t')) throw new Error(`booking webhook verify printed ${JSON.stringify(ours)}`);
  const theirs = mustSucceed('openssl dgst', runOnce(runs.openssl, { capture: true })).stdout.toString();
  if (!theirs.trim().endsWith(hex)) throw new Error(`openssl printed ${JSON.stringify(theirs)}, expected …${hex}`);
  const wrong = runOnce(booking(baseEnv, 'webhook', 'verify', body, '--signature', `sha256=${'0'.repeat(64)}`, '--secret', SECRET), {
    capture: true,
  });
  if (wrong.status !== 1) throw new Error(`booking webhook verify of a wrong signature exited ${wrong.status}, expected 1`);
  const t = interleave(runs, { rounds: rounds.verify, warmup: 1 });
  rmSync(body);
  record({
    name: `\`webhook verify\` of a ${BODY_MIB} MiB body`,
    ours: median(t.booking),
    theirs: median(t.openssl),
    against: '`openssl dgst -sha256 -hmac`',
    ...paired(t, 'booking', 'openssl'),
    op: '≤',
    target: 1.3,
    unit: 'time',
  });
}

/**
 * `webhook verify --request` of 2,000 captures against one: what a capture costs beyond start-up.
 * @param {import('./kit.mjs').Kit} kit
 */
export async function rowCaptures(kit) {
  const { note, record, rounds, booking, baseEnv, tmp } = kit;
  note(`captures: webhook verify --request of ${CAPTURES} captures vs 1 (${rounds.captures} rounds)`);
  const dir = join(tmp, 'captures');
  mkdirSync(dir);
  const paths = writeCaptures(dir, CAPTURES, SECRET);
  const runs = {
    one: booking(baseEnv, 'webhook', 'verify', '--secret', SECRET, '--request', paths[0]),
    all: booking(baseEnv, 'webhook', 'verify', '--secret', SECRET, '--request', ...paths),
  };
  for (const [name, count] of [
    ['one', 1],
    ['all', CAPTURES],
  ]) {
    const lines = mustSucceed(`webhook verify --request (${count})`, runOnce(runs[name], { capture: true }))
      .stdout.toString()
      .split('\n');
    lines.pop();
    if (lines.length !== count || !lines.every((l) => l.startsWith('authentic\t'))) {
      throw new Error(
        `webhook verify --request of ${count} printed ${lines.length} lines, not all authentic:\n${lines.slice(0, 3).join('\n')}`,
      );
    }
  }
  const t = interleave(runs, { rounds: rounds.captures, warmup: 1 });
  record({
    name: `\`webhook verify --request\` of ${CAPTURES.toLocaleString('en')} captures`,
    ours: median(t.all),
    theirs: median(t.one),
    against: 'the same with 1 capture',
    ...paired(t, 'all', 'one'),
    op: '≤',
    target: 3,
    unit: 'time',
  });
}

// @ts-check
// The listing rows of `npm run bench`: 20,000 bookings against a curl + jq loop (the first target),
// and issue 10's output rows (the table on a terminal, memory per format, paging against the bare
// loop).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gnuTime, interleave, median, mustSucceed, paired, pairedPeaks, runOnce } from './measure.mjs';
import { LARGE, SMALL, sh } from './kit.mjs';
import { pagingAgainstBareLoop } from './paging.mjs';
import { bookingJson } from './server.mjs';

/**
 * 20,000 bookings listed by booking against a curl + jq loop over the same pages.
 * @param {import('./kit.mjs').Kit} kit @param {import('./kit.mjs').Ports} ports
 */
export async function rowList(kit, ports) {
  const { note, record, rounds, envAt, booking, have, skipped, notes, root, toolVersion } = kit;
  const missing = ['curl', 'jq'].filter((t) => !have(t));
  if (missing.length) return void skipped.push(`list vs curl + jq: ${missing.join(' and ')} not installed`);
  note(`list: ${SMALL} bookings in pages of 100, booking vs a curl + jq loop (${rounds.list} rounds)`);
  const env = envAt(ports, SMALL);
  const runs = {
    booking: booking(env, 'bookings', 'list', '--page-size', '100', '-o', 'ndjson'),
    curljq: { cmd: 'sh', args: [join(root, 'scripts', 'bench', 'curl-jq.sh')], env },
  };
  const ours = mustSucceed('booking bookings list', runOnce(runs.booking, { capture: true }))
    .stdout.toString()
    .split('\n');
  const theirs = mustSucceed('curl + jq loop', runOnce(runs.curljq, { capture: true }))
    .stdout.toString()
    .split('\n');
  for (const [who, lines] of /** @type {[string, string[]][]} */ ([
    ['booking', ours],
    ['curl + jq', theirs],
  ])) {
    if (lines.pop() !== '' || lines.length !== SMALL) throw new Error(`${who} printed ${lines.length} lines, expected ${SMALL}`);
  }
  let rewritten = 0;
  for (let i = 0; i < SMALL; i++) {
    const expected = bookingJson(i);
    // booking: byte for byte what the server sent, 64-bit ids included.
    if (ours[i] !== expected) throw new Error(`booking's item ${i} differs from the server's:\n${ours[i]}\n${expected}`);
    // curl + jq: the same items once both are read as JSON numbers (jq 1.6 rounds ids above 2^53).
    if (!isDeepStrictEqual(JSON.parse(theirs[i]), JSON.parse(expected))) throw new Error(`curl + jq item ${i} differs:\n${theirs[i]}`);
    if (theirs[i] !== expected) rewritten++;
  }
  if (rewritten)
    notes.push(
      `the curl + jq loop printed the same ${SMALL.toLocaleString('en')} items, but ${rewritten.toLocaleString('en')} with their 64-bit id rounded (${toolVersion('jq', ['--version'])} reads numbers as doubles); booking's output is byte for byte the server's.`,
    );
  const t = interleave(runs, { rounds: rounds.list, warmup: 0, onRound: (r) => note(`  round ${r}/${rounds.list}`) });
  record({
    name: `list ${SMALL.toLocaleString('en')} bookings, pages of 100 (\`-o ndjson\`)`,
    ours: median(t.booking),
    theirs: median(t.curljq),
    against: 'curl + jq loop',
    ...paired(t, 'curljq', 'booking'),
    op: '≥',
    target: 8,
    unit: 'time',
  });
}

/**
 * A shell command line run on a pseudo-terminal of 120 columns (util-linux `script`).
 * @param {import('./kit.mjs').Env} env @param {string} line
 */
function onTerminal(env, line) {
  return { cmd: 'script', args: ['-qfec', `stty cols 120 rows 50 2>/dev/null; ${line}`, '/dev/null'], env };
}

/**
 * Peak RSS (KiB) of the booking run inside a shell command line: `{time}` is replaced by GNU time.
 * @param {string} tmp @param {string} time @param {import('./kit.mjs').Env} env @param {string} template @param {boolean} terminal
 */
function shellRssKiB(tmp, time, env, template, terminal) {
  const file = join(tmp, 'rss.txt');
  const line = template.replace('{time}', `${sh(time)} -o ${sh(file)} -f %M`);
  mustSucceed(line, runOnce(terminal ? onTerminal(env, line) : { cmd: 'sh', args: ['-c', line], env }));
  return Number(readFileSync(file, 'utf8').trim().split('\n').pop());
}

/**
 * Issue 10's rows: the table on a terminal against ndjson to a pipe, time and memory; table and json
 * memory for 100,000 bookings against 20,000; ndjson paging against the bare loop (paging.mjs).
 * @param {import('./kit.mjs').Kit} kit @param {import('./kit.mjs').Ports} ports
 */
export async function rowOutput(kit, ports) {
  const { note, record, rounds, envAt, bookingLine, have, skipped, tmp } = kit;
  if (!have('script')) return void skipped.push('output rows: util-linux script not installed');
  const time = gnuTime();
  note(
    `output: ${SMALL} bookings as a table on a pseudo-terminal vs -o ndjson piped; table and json peak RSS ${LARGE} vs ${SMALL}; ndjson vs a bare node loop (${rounds.output} rounds; the paging ${rounds.paging})`,
  );
  const env = envAt(ports, SMALL);
  const list = ['bookings', 'list', '--page-size', '100'];
  const tableLine = bookingLine(...list, '--no-pager');
  const ndjsonLine = `${bookingLine(...list, '-o', 'ndjson')} | cat > /dev/null`;
  // Rows come after the progress line's clearing escape when a page's progress was on screen.
  const shown = runOnce(onTerminal(env, tableLine), { capture: true }).stdout.toString();
  const rows = shown.split('\n').filter((l) => /^bk_\w{7}\s/.test(l.replace(/^[\s\S]*\x1b\[2K/, ''))).length;
  if (rows !== SMALL) throw new Error(`the table on a terminal showed ${rows} rows, expected ${SMALL}`);
  const runs = { table: onTerminal(env, tableLine), ndjson: { cmd: 'sh', args: ['-c', ndjsonLine], env } };
  const t = interleave(runs, { rounds: rounds.output, warmup: 1 });
  record({
    name: `${SMALL.toLocaleString('en')} bookings as a table on a terminal (\`--no-pager\`)`,
    ours: median(t.table),
    theirs: median(t.ndjson),
    against: '`-o ndjson` to a pipe',
    ...paired(t, 'table', 'ndjson'),
    op: '≤',
    target: 1.5,
    unit: 'time',
  });
  if (!time) skipped.push('output peak memory: GNU time (/usr/bin/time) not installed');
  else {
    /** @type {{ table: number[], ndjson: number[] }} */
    const rss = { table: [], ndjson: [] };
    for (let round = 0; round < rounds.outputPeaks; round++) {
      rss.table.push(shellRssKiB(tmp, time, env, `{time} ${tableLine} > /dev/null`, true));
      rss.ndjson.push(shellRssKiB(tmp, time, env, `{time} ${ndjsonLine}`, false));
    }
    const table = median(rss.table);
    const ndjson = median(rss.ndjson);
    record({
      name: 'peak RSS of the same',
      ours: table,
      theirs: ndjson,
      against: '`-o ndjson` to a pipe',
      ...pairedPeaks(rss.table, rss.ndjson),
      op: '≤',
      target: 1.3,
      unit: 'memory',
    });
    for (const format of ['table', 'json']) {
      /** @type {Record<number, number[]>} */
      const runs = { [SMALL]: [], [LARGE]: [] };
      for (let round = 0; round < rounds.outputPeaks; round++) {
        for (const total of [SMALL, LARGE])
          runs[total].push(shellRssKiB(tmp, time, envAt(ports, total), `{time} ${bookingLine(...list, '-o', format)} > /dev/null`, false));
      }
      const peak = { [SMALL]: median(runs[SMALL]), [LARGE]: median(runs[LARGE]) };
      record({
        // Issue 10's rows: table and json of 100k items at most 1.3x their 20k figure.
        name: `peak RSS, \`-o ${format}\`: ${LARGE.toLocaleString('en')} vs ${SMALL.toLocaleString('en')} bookings`,
        ours: peak[LARGE],
        theirs: peak[SMALL],
        against: `${SMALL.toLocaleString('en')} bookings`,
        ...pairedPeaks(runs[LARGE], runs[SMALL]),
        op: '≤',
        target: 1.3,
        unit: 'memory',
      });
    }
  }
  // Paging against the floor, issue 10's target: the same runs as the lossless row with small ids
  // (below 2^53, so that JSON.parse prints the same bytes as booking), measured once for both rows.
  const p = pagingAgainstBareLoop(kit, ports, 'small');
  record({
    name: `${SMALL.toLocaleString('en')} bookings, pages of 100, \`-o ndjson\``,
    ours: median(p.booking),
    theirs: median(p.bare),
    against: 'bare node http + JSON.parse loop',
    ...paired(p, 'booking', 'bare'),
    op: '≤',
    target: 1.4,
    unit: 'time',
  });
}

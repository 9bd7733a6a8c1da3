// Man pages from the command tree (src/man.ts): one per command, in roff that man reads literally.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { wholeProgram } from '../../src/command-tree';
import { manPages, pageName } from '../../src/man';

const program = await wholeProgram();
const pages = new Map(manPages(program, '1.2.3').map((p) => [p.file, p.text]));

function leaves(cmd: Command, out: Command[] = []): Command[] {
  const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden && c.name() !== 'help');
  if (subs.length === 0) out.push(cmd);
  for (const sub of subs) leaves(sub, out);
  return out;
}

describe('man pages', () => {
  it('one for the program and for every leaf command', () => {
    const wanted = ['booking.1', ...leaves(program).map((c) => `${pageName(c)}.1`)];
    expect(wanted.filter((f) => !pages.has(f))).toEqual([]);
    expect(pages.has('booking-bookings.1')).toBe(true);
    expect(pages.has('booking-__complete.1')).toBe(false);
  });

  it("an alias (bookings ls, bookings view) is in its command's NAME and SYNOPSIS, and in its group's COMMANDS", () => {
    const get = pages.get('booking-bookings-get.1')!;
    expect(get).toContain('.SH NAME\nbooking\\-bookings\\-get, booking\\-bookings\\-view \\-');
    expect(get).toMatch(/\.SH SYNOPSIS\n\.B booking bookings get\n.*\n\.br\n\.B booking bookings view\n/);
    expect(pages.get('booking-bookings-list.1')).toContain('booking\\-bookings\\-list, booking\\-bookings\\-ls \\-');
    expect(pages.get('booking-bookings.1')).toMatch(/show one booking by its uid \(also: view\)/);
    // TZ, where tables show times.
    expect(pages.get('booking-bookings-list.1')).toMatch(/\n\.B TZ\n/);
  });

  it('package.json\'s "man" lists every page: npm links them for npm link and a folder or tarball install', () => {
    const listed = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { man?: string[] }).man;
    const made = [...pages.keys()].sort().map((f) => `./man/${f}`);
    expect(listed, 'package.json "man" is not the command tree\'s pages: run npm run build && node scripts/man-list.mjs').toEqual(made);
  });

  it("a command's page: name, synopsis, options, examples, in roff with dashes escaped", () => {
    const page = pages.get('booking-bookings-list.1')!;
    expect(page).toMatch(/^\.TH BOOKING\\-BOOKINGS\\-LIST 1 \d{4}-\d{2}-\d{2} "booking 1\.2\.3" "booking manual"\n/);
    expect(page).toContain(
      '.SH NAME\nbooking\\-bookings\\-list, booking\\-bookings\\-ls \\- list bookings, following\ncursors automatically\n',
    );
    expect(page).toContain('.B \\-L, \\-\\-limit <n>\n');
    expect(page).toMatch(/\.SH EXAMPLES\n\.nf\nbooking bookings list \\-s confirmed \\-L 10\n/);
    expect(page).toContain('.SH SEE ALSO\n.BR booking\\-bookings (1),\n.BR booking (1)\n');
  });

  it("the program's page lists the global options and the commands", () => {
    const page = pages.get('booking.1')!;
    expect(page).toContain('.SH GLOBAL OPTIONS\n');
    expect(page).toContain('.B \\-\\-profile <name>\n');
    expect(page).toContain('.BR booking\\-bookings (1)\n');
  });
});

describe('every page, as man and mandoc read it', () => {
  it('has NAME, SYNOPSIS, DESCRIPTION, OPTIONS, ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES, SEE ALSO, in that order', () => {
    for (const cmd of leaves(program)) {
      const page = pages.get(`${pageName(cmd)}.1`)!;
      const sections = [...page.matchAll(/^\.SH (.+)$/gm)].map((m) => m[1]!);
      const wanted = ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'ENVIRONMENT', 'FILES', 'EXIT STATUS', 'EXAMPLES', 'SEE ALSO'];
      const present = wanted.filter((w) => sections.includes(w));
      expect(present, pageName(cmd)).toEqual(wanted.filter((w) => w !== 'OPTIONS' || cmd.options.some((o) => o.long !== '--help')));
      expect(
        sections.filter((s) => wanted.includes(s)),
        pageName(cmd),
      ).toEqual(present);
    }
  });

  it("EXIT STATUS lists the codes a command ends with: the service's (3, 4, 5) only where it sends requests, verify's and send's own 0 and 1", () => {
    const exit = (name: string) => {
      const page = pages.get(name)!.replace(/\\-/g, '-');
      return page.slice(page.indexOf('.SH EXIT STATUS'), page.indexOf('.SH', page.indexOf('.SH EXIT STATUS') + 4));
    };
    expect(exit('booking-webhook-verify.1')).toContain('not authentic: a signature did not match its body');
    expect(exit('booking-webhook-send.1')).toContain('a receiver answered anything else (401 included)');
    for (const name of ['booking-webhook-verify.1', 'booking-webhook-send.1', 'booking-webhook-sign.1', 'booking-config-set.1'])
      expect(exit(name), name).not.toMatch(/\n\.TP\n\.B [345]\n/);
    for (const name of ['booking.1', 'booking-bookings-list.1', 'booking-whoami.1'])
      expect(exit(name), name).toMatch(/\n\.B 3\n[\s\S]*\n\.B 4\n[\s\S]*\n\.B 5\n/);
  });

  it('the DESCRIPTION says more than the NAME line: what the command prints, where it connects, its notes', () => {
    const list = pages.get('booking-bookings-list.1')!;
    const description = list.slice(list.indexOf('.SH DESCRIPTION'), list.indexOf('.SH', list.indexOf('.SH DESCRIPTION') + 4));
    expect(description).toContain('It prints records');
    expect(description).toContain("It talks to the service at the profile's base URL");
    const watch = pages.get('booking-bookings-watch.1')!;
    expect(watch.replace(/\n/g, ' ')).toContain('Ctrl\\-C (SIGINT) or SIGTERM stops it cleanly with exit 0');
    expect(pages.get('booking.1')).toContain('booking is a command');
  });

  it("mandoc -T lint finds nothing: no warning, no style note (the .TH date is the build's)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'booking-man-'));
    try {
      for (const [file, text] of pages) writeFileSync(join(dir, file), text);
      const r = spawnSync('mandoc', ['-T', 'lint', ...[...pages.keys()].map((f) => join(dir, f))], { encoding: 'utf8' });
      if (r.error) {
        // mandoc is installed by .ci/run (apt-get install mandoc); without CI, a missing one skips the check.
        if (process.env.CI) throw r.error;
        return;
      }
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

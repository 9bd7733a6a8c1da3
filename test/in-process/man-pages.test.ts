// Man pages from the command tree (src/man.ts): one per command, in roff that man reads literally.
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

  it("a command's page: name, synopsis, options, examples, in roff with dashes escaped", () => {
    const page = pages.get('booking-bookings-list.1')!;
    expect(page).toMatch(/^\.TH BOOKING\\-BOOKINGS\\-LIST 1 "" "booking 1\.2\.3" "booking manual"\n/);
    expect(page).toContain('.SH NAME\nbooking\\-bookings\\-list \\- list bookings, following cursors automatically\n');
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

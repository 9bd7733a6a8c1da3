// bin/booking.js reads the command off argv before the program loads (to pick the code cache, to
// build only the command named, and to ready the HTTP parser for a command that sends requests). It
// learns which global options take a value, and which commands send requests, from
// dist/command-facts.json, which the build writes from the command tree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli';
import { programFacts, type CommandFacts } from '../../src/command-facts';
import { testIO } from '../../src/output/io';
import { ROOT } from '../helpers/cli';

const program = await buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode() {} });

function builtFacts(): CommandFacts {
  return JSON.parse(readFileSync(join(ROOT, 'dist', 'command-facts.json'), 'utf8')) as CommandFacts;
}

describe('dist/command-facts.json', () => {
  it('is the facts of the program as the sources build it (run npm run build when this fails)', () => {
    expect(builtFacts()).toEqual(programFacts(program));
  });

  it('names every global option that takes a value, in both spellings', () => {
    // Not --json [fields]: its optional word is a command unless it is a field list with a comma
    // (src/base/json-flag.ts), which the bin's word pattern already stops at.
    const takesValue = program.options.filter((o) => o.required).flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f)));
    expect([...builtFacts().valueOptions].sort()).toEqual(takesValue.sort());
    expect(builtFacts().valueOptions).toContain('--profile');
  });

  it('names the commands that send requests, as they may be typed', () => {
    // These at least (a new GET leaf joins the facts by its defineCommand's sendsRequests alone).
    expect(builtFacts().sendsRequests).toEqual(
      expect.arrayContaining([
        'login',
        'auth login',
        'whoami',
        'bookings list',
        'bookings ls',
        'bookings get',
        'bookings view',
        'bookings watch',
        'event-types',
        'api',
      ]),
    );
    expect(builtFacts().sendsRequests).not.toContain('webhook send');
  });

  it('names the commands whose runs are short (one request, one record), and no listing', () => {
    expect([...builtFacts().shortRuns].sort()).toEqual(['bookings get', 'bookings view', 'whoami']);
  });
});

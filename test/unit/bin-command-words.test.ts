// bin/booking.js reads the command off argv before the program loads (to pick the code cache and
// to build only the command named). It skips global options and their values by a list of its own:
// that list must name every global option that takes a value, or a value could pass for a command.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli';
import { testIO } from '../../src/io';
import { ROOT } from '../helpers/cli';

function binValueOptions(): string[] {
  const source = readFileSync(join(ROOT, 'bin', 'booking.js'), 'utf8');
  const list = /const VALUE_OPTIONS = new Set\(\[([^\]]*)\]\)/.exec(source)?.[1] ?? '';
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]!).sort();
}

describe('bin/booking.js VALUE_OPTIONS', () => {
  it('names every global option that takes a value, in both spellings', () => {
    const program = buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode() {} });
    // Not --json [fields]: its optional word is a command unless it is a field list with a comma
    // (src/json-flag.ts), which the bin's word pattern already stops at.
    const takesValue = program.options.filter((o) => o.required).flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f)));
    expect(binValueOptions()).toEqual(takesValue.sort());
  });
});

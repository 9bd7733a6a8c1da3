// The zone named in a table's time header: TZ as set, else the system's zone file, and Intl (whose
// first use costs ~25 ms) only for what neither names.
import { readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { localZoneName } from '../../src/output/columns';

const saved = process.env.TZ;
afterEach(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

describe('localZoneName', () => {
  it('names TZ as the user set it (a leading colon dropped)', () => {
    for (const [tz, name] of [
      ['Europe/London', 'Europe/London'],
      [':America/New_York', 'America/New_York'],
      ['UTC', 'UTC'],
      ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ]) {
      process.env.TZ = tz;
      expect(localZoneName(), tz).toBe(name);
    }
  });

  it('asks Intl for a TZ that is no zone name', () => {
    for (const tz of ['', 'UTC0', '../etc/passwd']) {
      process.env.TZ = tz;
      expect(localZoneName(), tz).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'local');
    }
  });

  it("without TZ, names the system's zone file", () => {
    delete process.env.TZ;
    let link: string | undefined;
    try {
      link = readlinkSync('/etc/localtime');
    } catch {}
    const at = link?.indexOf('zoneinfo/') ?? -1;
    expect(localZoneName()).toBe(at >= 0 ? link!.slice(at + 9) : Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});

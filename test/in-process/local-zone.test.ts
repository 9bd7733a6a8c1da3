// The zone named in a table's time header: TZ as set, else the system's zone file, and Intl (whose
// first use costs ~25 ms) only for what neither names.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
    // Intl answers a zone no rule here could make up: the answer can only have come from it.
    const asked = vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      timeZone: 'Test/Asked_Intl',
    } as Intl.ResolvedDateTimeFormatOptions);
    try {
      for (const tz of ['', 'UTC0', '../etc/passwd', 'Not/A_Zone_Anywhere']) {
        process.env.TZ = tz;
        expect(localZoneName(), tz).toBe('Test/Asked_Intl');
      }
    } finally {
      asked.mockRestore();
    }
  });

  it('a TZ no zone database knows (empty, a typo) is named by the offset times are shown at (UTC), not Etc/Unknown', () => {
    for (const tz of ['', 'Not/A_Zone_Anywhere']) {
      process.env.TZ = tz;
      expect(localZoneName(), tz).toBe('UTC');
    }
  });

  it("without TZ, names the zone the system's link points to in the zone database", () => {
    delete process.env.TZ;
    const dir = mkdtempSync(join(tmpdir(), 'booking-zone-'));
    try {
      const link = join(dir, 'localtime');
      // The link's target need not exist: the name is read from the link, not from the file.
      symlinkSync('/usr/share/zoneinfo/Asia/Kolkata', link);
      expect(localZoneName(link)).toBe('Asia/Kolkata');
      const macos = join(dir, 'localtime-macos');
      symlinkSync('/var/db/timezone/zoneinfo/America/Argentina/Buenos_Aires', macos);
      expect(localZoneName(macos)).toBe('America/Argentina/Buenos_Aires');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without TZ, a link outside the zone database (or none) is not taken for a zone name: Intl is asked', () => {
    delete process.env.TZ;
    const dir = mkdtempSync(join(tmpdir(), 'booking-zone-'));
    const asked = vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({
      timeZone: 'Test/Asked_Intl',
    } as Intl.ResolvedDateTimeFormatOptions);
    try {
      const odd = join(dir, 'localtime');
      symlinkSync('/etc/my-own-zone', odd);
      expect(localZoneName(odd)).toBe('Test/Asked_Intl');
      expect(localZoneName(join(dir, 'missing'))).toBe('Test/Asked_Intl');
    } finally {
      asked.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

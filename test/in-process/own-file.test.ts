// src/base/own-file.ts, the one way booking opens a file it reads by name, and clean-up that removes
// only what it made. The CLI tests (test/process/own-files.test.ts, config-bounds.test.ts) show the
// refusals as a user meets them; these pin the rules each caller chooses between.
import { chmodSync, closeSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FileRefused, openOwnFile, readOwnFile, type OwnFileRules } from '../../src/base/own-file';
import { formatBytes } from '../../src/base/words';
import { CaptureSaver } from '../../src/commands/webhook/listen/save';
import { tempDir } from '../helpers/webhook-kit';

const tmp = tempDir({ 'plain.txt': 'hello\n' });
afterAll(() => tmp.cleanup());

const rules = (more: Partial<OwnFileRules> = {}): OwnFileRules => ({
  name: 'the test file',
  maxBytes: 100,
  bound: 'a test file may be',
  ...more,
});

/** The refusal `read` throws: its reason and message. */
function refusal(read: () => unknown): { reason: string; message: string } {
  try {
    read();
  } catch (err) {
    if (err instanceof FileRefused) return { reason: err.reason, message: err.message };
    throw err;
  }
  throw new Error('not refused');
}

describe('openOwnFile and readOwnFile', () => {
  it('read a regular file to its size; a missing one is undefined only when it may be missing', () => {
    expect(readOwnFile(tmp.path('plain.txt'), rules())?.toString()).toBe('hello\n');
    expect(readOwnFile(tmp.path('absent'), rules({ mayBeMissing: true }))).toBeUndefined();
    expect(() => readOwnFile(tmp.path('absent'), rules())).toThrow('cannot read the test file: no such file.');
  });

  it('refuse a link unless told to follow it (a file the user named)', () => {
    symlinkSync('plain.txt', tmp.path('link.txt'));
    expect(refusal(() => readOwnFile(tmp.path('link.txt'), rules()))).toEqual({
      reason: 'symlink',
      message: 'refusing the test file: it is a symbolic link, and booking reads only the file itself, never where a link points.',
    });
    expect(readOwnFile(tmp.path('link.txt'), rules({ follow: true }))?.toString()).toBe('hello\n');
  });

  it('refuse a device or a folder; stream a device only when the caller streams', () => {
    expect(refusal(() => openOwnFile('/dev/null', rules()))).toEqual({
      reason: 'special',
      message: 'refusing the test file: it is not a regular file (a device).',
    });
    const file = openOwnFile('/dev/null', rules({ streams: true }))!;
    expect(file.stats.isCharacterDevice()).toBe(true);
    closeSync(file.fd);
    mkdirSync(tmp.path('folder'));
    expect(refusal(() => openOwnFile(tmp.path('folder'), rules({ streams: true }))).reason).toBe('folder');
  });

  it('refuse a file over its bound by its size, the exact count when the rough one would read as the bound', () => {
    writeFileSync(tmp.path('big'), 'x'.repeat(101));
    expect(refusal(() => readOwnFile(tmp.path('big'), rules())).message).toBe(
      'refusing the test file: it is 101 bytes, over the 100 bytes a test file may be.',
    );
    writeFileSync(tmp.path('bigger'), 'x'.repeat(2049));
    expect(refusal(() => readOwnFile(tmp.path('bigger'), rules({ maxBytes: 1024 }))).message).toContain('it is 2 KiB, over the 1 KiB');
    expect(formatBytes(3 * 2 ** 30 + 2 ** 28, true)).toBe('3.3 GiB');
    expect(formatBytes(100_000)).toBe('100000 bytes');
  });

  it('with mustBeOwn, refuse a file others can write to, with the hint the caller gives', () => {
    writeFileSync(tmp.path('shared'), 'x');
    chmodSync(tmp.path('shared'), 0o666);
    const hint = vi.fn(() => 'chmod it');
    let err: unknown;
    try {
      readOwnFile(tmp.path('shared'), rules({ mustBeOwn: true, hint }));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      reason: 'writable-by-others',
      message: 'refusing the test file: other users can write to it (mode 0666).',
      hint: 'chmod it',
    });
    expect(readOwnFile(tmp.path('shared'), rules())?.toString()).toBe('x');
  });
});

describe('webhook listen --save: clean-up removes only what the save made', () => {
  it("a file already at the temporary name is not the save's: the save fails, the file stays", async () => {
    const folder = tmp.path('captures');
    mkdirSync(folder, { mode: 0o700 });
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      const theirs = `${folder}/.${process.pid}-1700000000000-1.part`;
      writeFileSync(theirs, 'not yours\n');
      const saver = new CaptureSaver(folder);
      const head = { method: 'POST', url: '/h', httpVersion: '1.1', rawHeaders: ['Host', 'x'] };
      await expect(saver.save(head, Buffer.from('{}'), 'booking.created', new Date())).rejects.toMatchObject({ code: 'EEXIST' });
      expect(existsSync(theirs)).toBe(true);
      expect(readFileSync(theirs, 'utf8')).toBe('not yours\n');
    } finally {
      now.mockRestore();
    }
  });
});

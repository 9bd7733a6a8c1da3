// The output door (src/output/door.ts): every stream a command writes to masks the key and URL
// passwords, escapes what a terminal must not get raw, and reports failed writes, and a destination
// added later (the pager) gets the same stages with the same masks.
import { describe, expect, it } from 'vitest';
import { testIO } from '../../src/output/io';

const KEY = 'sk_live_SECRETKEY1234567890';

describe('the door', () => {
  it('masks only after maskSecret, on stdout and stderr, strings and bytes alike', () => {
    const io = testIO();
    io.stdout.write(`before ${KEY}\n`);
    io.maskSecret(KEY);
    io.stdout.write(`after ${KEY.toLowerCase()}\n`);
    io.stderr.write(Buffer.from(`err ${KEY}\n`));
    expect(io.out()).toBe(`before ${KEY}\nafter ****\n`);
    expect(io.err()).toBe('err ****\n');
  });

  it('bytes that are not text pass a pipe unchanged', () => {
    const io = testIO();
    io.maskSecret(KEY);
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x1b, 0x5d]);
    io.stdout.write(bytes);
    expect(io.outBytes().equals(bytes)).toBe(true);
  });

  it('on a terminal, escapes OSC, foreign SGR, C1 and bidi, and keeps its own colours and the progress line', () => {
    const io = testIO({ tty: true });
    io.stdout.write('\x1b]0;pwned\x07 \x1b[5;41mblink \x9b \u202eevil\u202c \x1b[32mok\x1b[39m\tcol\n');
    io.stderr.write('\r\x1b[2KFetching… 1 page');
    expect(io.out()).toBe('\\x1b]0;pwned\\x07 \\x1b[5;41mblink \\x9b \\u202eevil\\u202c \x1b[32mok\x1b[39m\tcol\n');
    expect(io.err()).toBe('\r\x1b[2KFetching… 1 page');
  });

  it('a pipe gets the bytes as written', () => {
    const io = testIO();
    io.stdout.write('\x1b]0;x\x07\u202e\n');
    expect(io.out()).toBe('\x1b]0;x\x07\u202e\n');
  });

  it('a destination reached through() gets the same masks and the escaper; its failure goes to its handler', () => {
    const io = testIO();
    io.maskSecret(KEY);
    const got: string[] = [];
    const failures: string[] = [];
    const paged = io.through(
      {
        stream: {
          write(c) {
            if (String(c).includes('boom')) throw Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
            got.push(String(c));
          },
        },
        isTTY: true,
        onFailure: (err) => failures.push(err.message),
      },
      { stderrIsTTY: false, color: false },
    );
    paged.stdout.write(`key ${KEY} \x1b]8;;http://x\x07link http://u:pw@h/\n`);
    paged.stdout.write('boom\n');
    paged.stdout.write('after\n');
    expect(got).toEqual(['key **** \\x1b]8;;http://x\\x07link http://u:****@h/\n']);
    expect(failures).toEqual(['EPIPE']);
    expect(paged.stderrIsTTY).toBe(false);
    // A key masked later covers the derived streams too.
    io.maskSecret('another-secret-key-0000');
    io.stdout.write('another-secret-key-0000\n');
    expect(io.out()).toBe('****\n');
  });
});

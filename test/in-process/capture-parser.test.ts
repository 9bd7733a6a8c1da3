// The capture parser (src/webhook/capture.ts) on the framings and faults a hand-made or cut capture
// has: each fed whole and a byte at a time, which must agree.
import { describe, expect, it } from 'vitest';
import { CaptureParser } from '../../src/webhook/capture';

function parse(text: string, bytewise = false): { method: string; url: string; headers: string[]; body: string } | { error: string } {
  const body: Buffer[] = [];
  const parser = new CaptureParser('c.http', (b) => body.push(Buffer.from(b)));
  try {
    const bytes = Buffer.from(text, 'latin1');
    if (bytewise) for (let i = 0; i < bytes.length; i++) parser.push(bytes.subarray(i, i + 1));
    else parser.push(bytes);
    const head = parser.end();
    return { method: head.method, url: head.url, headers: head.rawHeaders, body: Buffer.concat(body).toString('latin1') };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function both(text: string) {
  const whole = parse(text);
  expect(parse(text, true)).toEqual(whole);
  return whole;
}

describe('the capture parser', () => {
  it('chunked, with extensions and trailers, de-chunked', () => {
    expect(both('POST /h HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n')).toEqual({
      method: 'POST',
      url: '/h',
      headers: ['Transfer-Encoding', 'chunked'],
      body: 'abcde',
    });
  });

  it('Content-Length: exactly that many bytes; what follows is not the body', () => {
    expect(both('PUT /x?a=1 HTTP/1.0\nContent-Length: 3\n\nabcdef')).toMatchObject({ method: 'PUT', url: '/x?a=1', body: 'abc' });
  });

  it('header values keep inner spaces and lose the outer ones; names keep their case', () => {
    expect(both('POST / HTTP/1.1\r\nX-A: \t one  two \t\r\nContent-Length: 0\r\n\r\n')).toMatchObject({
      headers: ['X-A', 'one  two', 'Content-Length', '0'],
      body: '',
    });
  });

  it.each([
    ['GET\r\n\r\n', /the first line is not an HTTP request line/],
    ['POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd', /invalid Content-Length/],
    ['POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n', /invalid Content-Length/],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\nabc', /does not end in chunked/],
    ['POST / HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\n', /obsolete line folding/],
    ['POST / HTTP/1.1\r\nBad Name: 1\r\n\r\n', /invalid header line/],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', /invalid chunk size/],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n', /a chunk is longer than its size says/],
    ['POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab', /ends before the request does/],
    ['POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc', /ends before the request does/],
  ])('%j is refused, naming why', (text, why) => {
    const r = both(text);
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toMatch(/^c\.http is not an HTTP request capture: /);
    expect((r as { error: string }).error).toMatch(why);
  });

  it('a head larger than 64 KiB is refused', () => {
    const r = parse(`POST / HTTP/1.1\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
    expect(r).toEqual({ error: expect.stringMatching(/headers are larger than 64 KiB/) });
  });
});

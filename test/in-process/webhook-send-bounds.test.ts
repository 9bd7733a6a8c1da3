// `webhook send` on hostile input (issue 23): --set edits only the path it names (every other byte of
// the body stays, numbers no JSON.parse keeps included), a body or capture over the 64 MiB limit is
// refused before any connection, and a capture whose header value holds a control byte is bad input
// (exit 2 naming the header), not "cannot reach".
import { closeSync, ftruncateSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSend, type SendOptions } from '../../src/commands/webhook/send/send';
import { MAX_CURL_BODY } from '../../src/commands/webhook/send/curl';
import { makeCtx, tempDirsPerTest } from '../helpers/webhook-kit';
import { startReceiver, type Receiver } from '../helpers/receiver';

let receiver: Receiver;
let url: string;
const got: Buffer[] = [];
beforeAll(async () => {
  receiver = await startReceiver();
  url = `${receiver.url}/hooks`;
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.splice(0);
  got.splice(0);
});
const newDir = tempDirsPerTest();

async function send(opts: Partial<SendOptions>) {
  const ctx = makeCtx({ output: 'tsv' });
  const code = await runSend({ url, secret: 'whsec_bounds', event: 'booking.created', ...opts } as SendOptions, ctx);
  got.push(...receiver.received.splice(0).map((r) => r.body));
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

describe('--set is lossless', () => {
  const body =
    '{ "id": 12345678901234567890123, "price": 1.50, "zero": -0, "huge": 1e400,\n  "data": {"booking": {"uid": "bk_1", "status": "pending"}, "list": [1, 2.0, {"a": null}]},\n  "tail": "é\\u00e9" }\n';

  it.each([
    ['data.booking.status=cancelled', body.replace('"pending"', '"cancelled"')],
    ['id=98765432109876543210', body.replace('12345678901234567890123', '98765432109876543210')],
    ['data.booking.seats=3', body.replace('"status": "pending"}', '"status": "pending","seats":3}')],
    ['data.list.2.a={"x": 1.10}', body.replace('"a": null', '"a": {"x": 1.10}')],
    ['data.list.1=2.50', body.replace('2.0,', '2.50,')],
  ])('--set %s changes that value only; every other byte stays', async (set, expected) => {
    const d = newDir();
    const file = d.path('body.json');
    writeFileSync(file, body);
    expect((await send({ body: file, set: [set] })).code).toBe(0);
    expect(got[0]!.toString()).toBe(expected);
  });

  it('a --set of a 20-digit id on a sample keeps its digits; the rest of the sample is as sent without --set', async () => {
    expect((await send({ set: ['data.booking.event_type.id=12345678901234567890'] })).code).toBe(0);
    expect(got[0]!.toString()).toContain('"event_type":{"id":12345678901234567890,"slug":"30min"}');
  });
});

describe('bodies over the limit', () => {
  const over = 64 * 1024 * 1024 + 1;

  it('--body FILE over 64 MiB: exit 2 before connecting', async () => {
    const d = newDir();
    const fd = openSync(d.path('big.json'), 'w');
    ftruncateSync(fd, over);
    closeSync(fd);
    await expect(send({ body: d.path('big.json') })).rejects.toMatchObject({
      exitCode: 2,
      message: `refusing ${d.path('big.json')}: it is ${over} bytes, over the 64 MiB a body send reads may be.`,
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('--request with a body over 64 MiB: exit 2 before connecting', async () => {
    const d = newDir();
    const fd = openSync(d.path('big.http'), 'w');
    writeSync(fd, `POST /h HTTP/1.1\r\nX-Service-Event: booking.created\r\nContent-Length: ${over}\r\n\r\n`);
    ftruncateSync(fd, over + 200);
    closeSync(fd);
    // The capture reader's own bound, as for verify --request (docs/security.md).
    await expect(send({ request: d.path('big.http') })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('is larger than a capture may be (a body of at most 64 MiB'),
    });
    expect(receiver.received).toHaveLength(0);
  });
});

describe('--print-curl', () => {
  const printCurl = async (body: string) => {
    const ctx = makeCtx();
    const code = await runSend({ url, secret: 'whsec_bounds', event: 'booking.created', body, printCurl: true } as SendOptions, ctx);
    return { code, out: ctx.io.out() };
  };
  // Up to four bytes of printf format a byte: a 64 MiB body made a command of up to 256 MB, in tens
  // of seconds and gigabytes, deaf to Ctrl-C.
  it(`a body over ${MAX_CURL_BODY / 1024 / 1024} MiB: exit 2, nothing printed`, async () => {
    const d = newDir();
    writeFileSync(d.path('big.bin'), Buffer.alloc(MAX_CURL_BODY + 1, 0xff));
    await expect(printCurl(d.path('big.bin'))).rejects.toMatchObject({
      exitCode: 2,
      message: `--print-curl: the body is ${MAX_CURL_BODY + 1} bytes, over the 8 MiB a printed command holds; nothing was printed.`,
    });
    expect(receiver.received).toHaveLength(0);
  });

  it('a body of 8 MiB of bytes that each need an escape: the command, its format four bytes a byte', async () => {
    const d = newDir();
    writeFileSync(d.path('max.bin'), Buffer.alloc(MAX_CURL_BODY, 0xff));
    const r = await printCurl(d.path('max.bin'));
    expect(r.code).toBe(0);
    expect(r.out.startsWith(`printf '${'\\377'.repeat(3)}`)).toBe(true);
    expect(r.out.indexOf("' | curl ")).toBe(8 + MAX_CURL_BODY * 4);
    expect(receiver.received).toHaveLength(0);
  });
});

it('a replayed capture with a control byte in a header value: exit 2 naming the header', async () => {
  const d = newDir();
  writeFileSync(
    d.path('cap.http'),
    'POST /h HTTP/1.1\r\nContent-Type: application/json\x0b\r\nX-Service-Event: booking.created\r\nContent-Length: 2\r\n\r\n{}',
  );
  await expect(send({ request: d.path('cap.http') })).rejects.toMatchObject({
    exitCode: 2,
    message: expect.stringContaining('its Content-Type header has a control byte (0x0b)'),
  });
  expect(receiver.received).toHaveLength(0);
});

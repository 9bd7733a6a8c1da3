// @ts-check
// Webhook inputs for the benchmark, written into the bench's temp folder: one large body, and raw
// request captures as `webhook listen` saves them (request line, headers, blank line, body).
import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const MiB = 1024 * 1024;

/** Writes `mib` MiB of random bytes (one random MiB, each copy stamped with its index) and returns the body's HMAC-SHA256 hex. */
export function writeBigBody(path, mib, secret) {
  const block = randomBytes(MiB);
  const hmac = createHmac('sha256', secret);
  const fd = openSync(path, 'w');
  try {
    for (let i = 0; i < mib; i++) {
      block.writeUInt32BE(i, 0);
      writeSync(fd, block);
      hmac.update(block);
    }
  } finally {
    closeSync(fd);
  }
  return hmac.digest('hex');
}

/** A delivery body like the service's: an event with the booking in it. */
function deliveryBody(i) {
  return JSON.stringify({
    id: `evt_${String(i).padStart(6, '0')}`,
    event: 'booking.created',
    created_at: '2026-01-05T09:00:00.000Z',
    data: {
      booking: {
        uid: `bk_${i.toString(36).padStart(7, '0')}`,
        title: '30 min meeting',
        status: 'pending',
        start: '2026-01-06T09:00:00Z',
        end: '2026-01-06T09:30:00Z',
        attendee: { name: `Attendee ${i}`, email: `a${i}@example.com` },
        event_type: { id: 1, slug: '30min' },
      },
    },
  });
}

/** Writes `count` signed captures into dir and returns their paths. */
export function writeCaptures(dir, count, secret) {
  const paths = [];
  for (let i = 1; i <= count; i++) {
    const body = Buffer.from(deliveryBody(i));
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    const head =
      'POST /webhooks/booking HTTP/1.1\r\n' +
      'Host: 127.0.0.1:8787\r\n' +
      'User-Agent: booking-webhooks/1.0\r\n' +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${body.length}\r\n` +
      'X-Service-Event: booking.created\r\n' +
      `X-Service-Signature: sha256=${signature}\r\n\r\n`;
    const path = join(dir, `capture-${String(i).padStart(4, '0')}.http`);
    writeFileSync(path, Buffer.concat([Buffer.from(head, 'latin1'), body]));
    paths.push(path);
  }
  return paths;
}

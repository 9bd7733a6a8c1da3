// Saving what `listen` receives as raw request captures that `verify --request` reads back: request
// line, headers as received, a blank line, the exact body bytes. One file per delivery, named so that
// `ls` sorts them by arrival, opened exclusively so no earlier capture is ever overwritten.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { headerValues } from './capture';

export interface RequestHead {
  method?: string;
  url?: string;
  httpVersion: string;
  rawHeaders: string[];
}

/** The capture's bytes. A chunked request keeps its header; its body is written as one chunk. */
export function captureBytes(req: RequestHead, body: Buffer): Buffer {
  const lines = [`${req.method ?? 'POST'} ${req.url ?? '/'} HTTP/${req.httpVersion}`];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  // node hands header values over as latin1, one char per byte: latin1 gives the bytes back.
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  const chunked = headerValues(req.rawHeaders, 'transfer-encoding').some((v) => /\bchunked\b/i.test(v));
  if (!chunked) return Buffer.concat([head, body]);
  const framed = body.length ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')] : [];
  return Buffer.concat([head, ...framed, Buffer.from('0\r\n\r\n')]);
}

export class CaptureSaver {
  private seq = 0;
  private ready: Promise<unknown> | undefined;

  constructor(readonly dir: string) {}

  /** Writes one capture and returns its path. */
  async save(req: RequestHead, body: Buffer, event: string | null, time: Date): Promise<string> {
    // Created on first save only, private: deliveries carry attendees' personal data.
    this.ready ??= mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.ready;
    const bytes = captureBytes(req, body);
    const stamp = time.toISOString().replace(/[-:]/g, '');
    const label = (event ?? 'no-event').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
    for (;;) {
      const path = join(this.dir, `${stamp}-${String(++this.seq).padStart(4, '0')}-${label}.http`);
      try {
        await writeFile(path, bytes, { flag: 'wx', mode: 0o600 });
        return path;
      } catch (err) {
        if ((err as { code?: string }).code !== 'EEXIST') throw err;
      }
    }
  }
}

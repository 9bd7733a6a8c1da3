// Saving what `listen` receives as raw request captures that `verify --request` reads back: request
// line, headers as received, a blank line, the exact body bytes. One file per delivery, named so that
// `ls` sorts them by arrival. Each is written under a temporary name and linked to its own only when
// whole, so a full disk leaves no empty or cut capture, and no earlier capture is ever overwritten.
// The folder is held to a size cap (--max-saved): beyond it deliveries are no longer saved.
import { link, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { headerValues } from '../../../webhook/capture';

export interface RequestHead {
  method?: string;
  url?: string;
  httpVersion: string;
  rawHeaders: string[];
}

/** The capture's parts, head then body, written one after the other (a large body is not copied). */
function captureParts(req: RequestHead, body: Buffer): Buffer[] {
  const lines = [`${req.method ?? 'POST'} ${req.url ?? '/'} HTTP/${req.httpVersion}`];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  // node hands header values over as latin1, one char per byte: latin1 gives the bytes back.
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  // A chunked request keeps its header; its body is written as one chunk.
  const chunked = headerValues(req.rawHeaders, 'transfer-encoding').some((v) => /\bchunked\b/i.test(v));
  if (!chunked) return [head, body];
  const framed = body.length ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')] : [];
  return [head, ...framed, Buffer.from('0\r\n\r\n')];
}

// Where a filesystem cannot hard-link, the whole capture is renamed into place instead.
const NO_LINK = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

export class CaptureSaver {
  private seq = 0;
  private temps = 0;
  private ready: Promise<void> | undefined;
  /** Bytes of *.http in the folder, counted at the first save, plus what this run has saved or is saving. */
  private used = 0;

  constructor(
    readonly dir: string,
    /** --max-saved (its default is the command's). */
    readonly maxBytes = Infinity,
  ) {}

  /** Writes one capture and returns its path; null when it would take the folder over maxBytes. */
  async save(req: RequestHead, body: Buffer, event: string | null, time: Date): Promise<string | null> {
    this.ready ??= this.prepare();
    await this.ready;
    const parts = captureParts(req, body);
    const size = parts.reduce((n, p) => n + p.length, 0);
    if (this.used + size > this.maxBytes) return null;
    this.used += size;
    const stamp = time.toISOString().replace(/[-:]/g, '');
    const label = (event ?? 'no-event').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
    const name = () => join(this.dir, `${stamp}-${String(++this.seq).padStart(4, '0')}-${label}.http`);
    // Not *.http, so that `verify --request DIR` never reads one half-written.
    const temp = join(this.dir, `.${process.pid}-${Date.now()}-${++this.temps}.part`);
    try {
      await writeFile(temp, parts, { flag: 'wx', mode: 0o600 });
      return await this.publish(temp, name);
    } catch (err) {
      this.used -= size;
      // Not a file of ours when 'wx' found one there (EEXIST): clean-up removes only what it made.
      if ((err as { code?: string }).code !== 'EEXIST') await rm(temp, { force: true }).catch(() => {});
      throw err;
    }
  }

  /** Created on first save only, private: deliveries carry attendees' personal data. */
  private async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const entry of await readdir(this.dir)) {
      if (entry.endsWith('.http'))
        this.used += await stat(join(this.dir, entry)).then(
          (s) => s.size,
          () => 0,
        );
    }
  }

  private async publish(temp: string, name: () => string): Promise<string> {
    for (;;) {
      const path = name();
      try {
        await link(temp, path);
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (code === 'EEXIST') continue;
        if (!NO_LINK.has(code)) throw err;
        await rename(temp, path);
        return path;
      }
      // The capture is in place: a leftover temporary name is no reason to call the save failed.
      await unlink(temp).catch(() => {});
      return path;
    }
  }
}

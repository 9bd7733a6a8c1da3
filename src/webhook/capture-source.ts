// A capture named on the command line, whatever it is. A regular file is parsed in synchronous reads
// (thousands of captures in one run must cost little more than a start: open, one read, close) and
// read again for a second pass after a mismatch. A pipe, FIFO or terminal (`<(…)`, /dev/stdin) can
// be read only once and not by position: it is streamed once and its bytes kept for the second pass,
// up to SPOOL_LIMIT, as a body from stdin is (beyond it the rewrite hints are skipped, and memory
// stays flat).
import type { IOStreams } from '../io';
import { NotSeekable, Spool, type Sink } from './body-source';
import { CaptureParser, parseCaptureFile, type CaptureHead } from './capture';
import { openUnprobed, streamInput } from './input-open';
import { readStreamChunks, type StreamInput } from './stream-input';

export interface ReadCapture {
  head: CaptureHead;
  /** Streams the body again (de-chunked), or undefined when it could not be kept. */
  again: ((sink: Sink) => Promise<void>) | undefined;
}

/** Parses the capture at `path`, its body into `sink`. Ctrl-C (`signal`) ends a stream's read. */
export async function readCapture(io: IOStreams, path: string, sink: Sink, signal?: AbortSignal): Promise<ReadCapture> {
  const input = openUnprobed(io, path);
  if (input.kind === 'stream') return readStreamCapture(input, sink, signal);
  try {
    const head = parseCaptureFile(path, sink, input.fd);
    return { head, again: async (s) => void parseCaptureFile(path, s) };
  } catch (err) {
    if (!(err instanceof NotSeekable)) throw err;
    return readStreamCapture(streamInput(path, input.fd), sink, signal);
  }
}

async function readStreamCapture(input: StreamInput, sink: Sink, signal: AbortSignal | undefined): Promise<ReadCapture> {
  const kept = new Spool();
  const parser = new CaptureParser(input.name, sink);
  try {
    await readStreamChunks(input, signal, (chunk) => {
      kept.add(chunk);
      parser.push(chunk);
    });
  } catch (err) {
    parser.abandon();
    throw err;
  }
  const head = parser.end();
  const raw = kept.replay();
  const again =
    raw &&
    (async (s: Sink) => {
      const reparse = new CaptureParser(input.name, s);
      await raw((chunk) => reparse.push(chunk));
      reparse.end();
    });
  return { head, again };
}

// The HttpResponse handed to commands: the whole body in memory (pages are small), decoded on demand.
import { FailureError } from '../errors';
import { parseJson } from '../json';
import type { HttpResponse } from './types';
import { escapeOneLine, requestName } from './failures';

export function makeResponse(method: string, url: URL, status: number, headers: Record<string, string>, body: Buffer): HttpResponse {
  let parsed: { value: unknown } | undefined;
  const text = () => body.toString('utf8');
  return {
    status,
    url,
    headers,
    body,
    text,
    json() {
      parsed ??= { value: parseBody(method, url, headers['content-type'], text()) };
      return parsed.value;
    },
  };
}

function parseBody(method: string, url: URL, contentType: string | undefined, text: string): unknown {
  const type = contentType ? `content-type ${escapeOneLine(contentType, 80)}` : 'no content-type';
  const where = requestName(method, url);
  const json = text.replace(/^\uFEFF/, '');
  if (json.trim() === '') throw new FailureError(`${where}: expected JSON, got an empty body (${type})`);
  try {
    return parseJson(json);
  } catch (err) {
    const why = escapeOneLine((err as Error).message ?? '', 100);
    throw new FailureError(`${where}: the response is not valid JSON (${type}): ${why}`);
  }
}

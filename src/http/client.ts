import type { HttpClient } from './types';
import type { Connection } from '../config/types';
import type { GlobalOptions } from '../context';
import type { IOStreams } from '../io';
import { FailureError } from '../errors';

export interface ClientOptions {
  connection: Connection;
  globals: GlobalOptions;
  io: IOStreams;
  signal: AbortSignal;
}

export function createHttpClient(_opts: ClientOptions): HttpClient {
  throw new FailureError('http: not built yet');
}

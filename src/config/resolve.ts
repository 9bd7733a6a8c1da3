import type { ConfigStore, Connection } from './types';
import type { GlobalOptions } from '../context';
import { FailureError } from '../errors';

export function resolveConnection(_store: ConfigStore, _globals: GlobalOptions, _env: Record<string, string | undefined>): Connection {
  throw new FailureError('config: not built yet');
}

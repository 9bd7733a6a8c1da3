import type { ConfigStore } from './types';
import { FailureError } from '../errors';

export async function openConfig(_env: Record<string, string | undefined>): Promise<ConfigStore> {
  throw new FailureError('config: not built yet');
}

// What a keyring store is and says, apart from the store itself: keyring.ts and the child runner
// (keyring-process.ts) both need these, and neither should load the other for them.
export interface KeyringOp {
  op: 'get' | 'set' | 'delete';
  service: string;
  account: string;
  secret?: string;
}

/** One op's outcome: get → the key or null; set → null; delete → whether there was an entry. */
export type KeyringResult = { ok: true; value: string | boolean | null } | { ok: false; error: string };

/** What a keyring must do; ops run in order, and the signal aborts them all. */
export interface SecretStore {
  run(ops: KeyringOp[], signal: AbortSignal): Promise<KeyringResult[]>;
}

/** No keyring answered (no D-Bus session, no Secret Service): the file may stand in, said out loud. */
export class KeyringUnavailableError extends Error {}

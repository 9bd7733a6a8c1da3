// Types of keyring-session.mjs, for the test that shares it with the bench.
export function missingKeyringTools(): string[];
export function startKeyringSession(): Promise<{ bus: string; stop(): void }>;

// Typed errors: every failure a user can cause or meet is one of these, and bin/booking.js maps them
// to exit codes in one place. Anything else that escapes is a bug (exit 1 with a one-line message).

export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  RATE_LIMITED: 5,
  INTERRUPTED: 130,
} as const;

export class CliError extends Error {
  readonly exitCode: number;
  /** An extra line shown after the message, e.g. what to run next. */
  readonly hint: string | undefined;
  constructor(message: string, exitCode: number, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** Bad option, argument or input file; malformed config. Exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.USAGE, hint);
  }
}

/** No key or base URL, 401, 403. Exit 3. */
export class AuthError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.AUTH, hint);
  }
}

/** 404. Exit 4. */
export class NotFoundError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.NOT_FOUND, hint);
  }
}

/** 429 still after the retries. Exit 5. */
export class RateLimitError extends CliError {
  constructor(
    message: string,
    hint?: string,
    /** The wait the server asked for (Retry-After), when it named one: what a repeating command waits. */
    readonly retryAfterMs?: number,
  ) {
    super(message, ExitCode.RATE_LIMITED, hint);
  }
}

/** Network, server error after retries, unexpected response. Exit 1. */
export class FailureError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.FAILURE, hint);
  }
}

/** The user pressed Ctrl-C (or the process got SIGTERM). Exit 130. */
export class InterruptedError extends CliError {
  constructor(message = 'interrupted') {
    super(message, ExitCode.INTERRUPTED);
  }
}

/** One line, no stack: what the user sees for any error. */
export function describeError(err: unknown): { message: string; hint?: string; exitCode: number } {
  if (err instanceof CliError) return { message: err.message, hint: err.hint, exitCode: err.exitCode };
  const e = err as { code?: string; message?: string } | undefined;
  if (e?.code === 'EPIPE') return { message: '', exitCode: ExitCode.OK };
  const message = oneLine(e?.message ?? String(err));
  return { message: `unexpected error: ${message}`, exitCode: ExitCode.FAILURE };
}

export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

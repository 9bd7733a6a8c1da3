// Why a local server (`webhook listen`, `sandbox`) could not start, as the error a user can act on.
// A --host that is no address of this machine is a usage error (exit 2), like any bad option value;
// a port in use or a privileged port is a failure of the moment (exit 1).
import { FailureError, UsageError, type CliError } from './errors';

export function listenFailure(err: NodeJS.ErrnoException, host: string, where: string): CliError {
  switch (err.code) {
    case 'EADDRINUSE':
      return new FailureError(`cannot listen on ${where}: the port is in use.`, 'Pick another with --port, or --port 0 for any free one.');
    case 'EACCES':
      return new FailureError(
        `cannot listen on ${where}: permission denied.`,
        'Ports below 1024 need privileges; pick another with --port.',
      );
    case 'ENOTFOUND':
    case 'EADDRNOTAVAIL':
      return new UsageError(
        `--host ${host}: no such address on this machine (${err.code}).`,
        'Use 127.0.0.1 (the default), ::1, or 0.0.0.0 for every interface.',
      );
    default:
      return new FailureError(`cannot listen on ${where}: ${err.code ?? err.message}.`);
  }
}

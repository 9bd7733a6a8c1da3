import type { Command } from 'commander';

/** --secret and --secret-file, shared by every webhook command. */
export function addSecretOptions(cmd: Command): Command {
  return cmd
    .option('--secret <secret>', 'the endpoint\'s signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt)')
    .option('--secret-file <path>', 'read the signing secret from a file, or stdin for "-" (one trailing newline is dropped)');
}

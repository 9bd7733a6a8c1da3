import { Option } from 'commander';

/** --secret and --secret-file, shared by every webhook command (new objects for each command). */
export function secretOptions(): Option[] {
  return [
    new Option('--secret <secret>', "the endpoint's signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt)"),
    new Option('--secret-file <path>', 'read the signing secret from a file, or stdin for "-" (one trailing newline is dropped)'),
  ];
}

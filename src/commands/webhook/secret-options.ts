import { Option } from 'commander';
import { collect } from '../../options';

/** --secret and --secret-file, shared by every webhook command (new objects for each command). */
export function secretOptions(): Option[] {
  return [
    new Option(
      '--secret <secret>',
      "the endpoint's signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt); repeatable, for a rotation",
    ).argParser(collect(String)),
    new Option(
      '--secret-file <path>',
      'read signing secrets from a file, one a line, or stdin for "-" (empty lines are skipped); repeatable, for a rotation',
    ).argParser(collect(String)),
  ];
}

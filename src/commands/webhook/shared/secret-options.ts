import { collect } from '../../../base/options';
import { option } from '../../define';

/** --secret and --secret-file, shared by every webhook command (new objects for each command). */
export function secretOptions() {
  return [
    option(
      '--secret <secret>',
      "the endpoint's signing secret (else --secret-file, BOOKING_WEBHOOK_SECRET, or a prompt); repeatable, for a rotation",
      collect(String),
    ),
    option(
      '--secret-file <path>',
      'read signing secrets from a file, one a line, or stdin for "-" (empty lines are skipped); repeatable, for a rotation',
      collect(String),
    ),
  ];
}

// `--json [fields]` takes an optional value, and commander gives an optional option the next word
// whatever it is: `booking --json bookings list` would read "bookings" as the fields, and
// `bookings get --json bk_1` the uid. gh's habit (`--json uid,status`) is kept where it cannot be
// mistaken: the word after --json is its fields only when it looks like a field list and either has a
// comma, comes where the command takes no more positional arguments, or comes before a command name
// (`booking --json uid bookings list`). Otherwise `--json` alone is
// meant, written as `--json=` (which the option reads as "all fields"); `--json=a,b` is always fields.
import type { Command, Option } from 'commander';

const FIELD_LIST = /^[A-Za-z_@$][\w@$-]*(?:(?:\.|\[\d+\]\.?)[\w@$-]+)*(?:,[A-Za-z_@$][\w@$-]*(?:(?:\.|\[\d+\]\.?)[\w@$-]+)*)*$/;

function isCommand(parent: Command, word: string | undefined): boolean {
  return word !== undefined && parent.commands.some((c) => c.name() === word || c.aliases().includes(word));
}

/** argv with each ambiguous `--json WORD` resolved as described above. */
export function resolveJsonFlag(argv: string[], program: Command): string[] {
  const out: string[] = [];
  let current = program;
  let positionals = 0;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    out.push(arg);
    if (arg === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '--json') {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('-')) continue;
      const leafDone = current.commands.length === 0 && argumentsTaken(current, positionals);
      // `booking --json uid bookings list`: a word that names no command here, followed by one that does.
      const beforeCommand = !isCommand(current, next) && isCommand(current, argv[i + 2]);
      if (FIELD_LIST.test(next) && (next.includes(',') || leafDone || beforeCommand)) {
        out.push(next);
        i++;
      } else {
        out[out.length - 1] = '--json=';
      }
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      if (!arg.includes('=') && takesValue(current, arg)) {
        if (i + 1 < argv.length) out.push(argv[++i]!);
      }
      continue;
    }
    const sub = current.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub && positionals === 0) {
      current = sub;
    } else {
      positionals++;
    }
  }
  return out;
}

/** True when the command's positional arguments are all given (none is variadic). */
function argumentsTaken(cmd: Command, given: number): boolean {
  const args = cmd.registeredArguments;
  return !args.some((a) => a.variadic) && given >= args.length;
}

/** Whether the option word (of this command or one above it) takes the next word as its value. */
function takesValue(cmd: Command, word: string): boolean {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const option = c.options.find((o: Option) => o.long === word || o.short === word);
    if (option) return option.required;
  }
  return false;
}

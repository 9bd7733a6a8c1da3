// `--json [fields]` takes an optional value, and commander gives an optional option the next word
// whatever it is: `booking --json bookings list` would read "bookings" as the fields, and
// `bookings get --json bk_1` the uid. gh's habit (`--json uid,status`) is kept where it cannot be
// mistaken: the word after --json is its fields only when it looks like a field list and either has a
// comma, comes where the command takes no more positional arguments, or comes before a command name
// (`booking --json uid bookings list`). Otherwise `--json` alone is
// meant, written as `--json=` (which the option reads as "all fields"); `--json=a,b` is always fields.
// A list as typed in a hurry is read as meant: `uid,status,` and `'uid, status'` are `uid,status`;
// and a field list before the positional (`bookings get --json uid bk_1`) is fields when the command
// would otherwise get one argument too many. When it still gets too many, the error names --json.
import type { Command, Option } from 'commander';
import { UsageError } from './errors';

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
      const fields = tidyList(next);
      // Commas and nothing else (`--json ' , '`): a list with no field in it, handed as typed to --json's
      // parser, which refuses it as --fields' parser does.
      const commasOnly = next.includes(',') && fields.replace(/,/g, '') === '';
      // The positional words after this one: whether the leaf can take this word as one more.
      const leaf = current.commands.length === 0;
      const others = leaf ? positionals + laterPositionals(argv, i + 2, current) : 0;
      const overfull = leaf && others + 1 > maxArguments(current);
      // `booking --json uid bookings list`: a word that names no command here, followed by one that does.
      const beforeCommand = !isCommand(current, next) && isCommand(current, argv[i + 2]);
      const asFields = commasOnly || (FIELD_LIST.test(fields) && (fields.includes(',') || overfull || beforeCommand));
      if (leaf && (asFields ? others : others + 1) > maxArguments(current)) {
        throw new UsageError(
          `too many arguments for '${current.name()}' (after --json ${next}).`,
          'give --json its fields as one comma-separated word, such as --json uid,status.',
        );
      }
      if (asFields) {
        out.push(commasOnly ? next : fields);
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

/** `uid, status,` → `uid,status`: spaces around commas and a trailing comma dropped. */
function tidyList(word: string): string {
  return word
    .trim()
    .replace(/\s*,\s*/g, ',')
    .replace(/,$/, '');
}

/** How many positional arguments the command takes (Infinity when one is variadic). */
function maxArguments(cmd: Command): number {
  const args = cmd.registeredArguments;
  return args.some((a) => a.variadic) ? Infinity : args.length;
}

/** The positional words in argv from `from` on, option values skipped (a later --json's list too). */
function laterPositionals(argv: string[], from: number, cmd: Command): number {
  let count = 0;
  for (let i = from; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return count + argv.length - i - 1;
    if (arg === '--json') {
      if (argv[i + 1]?.includes(',')) i++;
    } else if (arg.startsWith('-') && arg !== '-') {
      if (!arg.includes('=') && takesValue(cmd, arg)) i++;
    } else count++;
  }
  return count;
}

/** Whether the option word (of this command or one above it) takes the next word as its value. */
function takesValue(cmd: Command, word: string): boolean {
  for (let c: Command | null = cmd; c; c = c.parent) {
    const option = c.options.find((o: Option) => o.long === word || o.short === word);
    if (option) return option.required;
  }
  return false;
}

// --jq EXPR: the JSON output through real jq (jq 1.8 compiled to WebAssembly, the jq-wasm package),
// so a script needs no jq installed and gets jq's own semantics. The wasm (~1 MB) is loaded only by a
// run that uses --jq. The value goes to jq as lossless JSON text, so a big integer jq passes through
// unchanged (`.id`) keeps its digits; one jq computes with becomes a double, as in jq itself.
// Strings are printed raw and values compact when piped, indented on a terminal, as gh does
// (jq-text.ts lays out and escapes what jq returns).
import { stringifyJson } from '../json';
import { FailureError, UsageError } from '../errors';
import { jqResultText } from './jq-text';
import { emit, type OutputContext } from './sink';

type JqModule = typeof import('jq-wasm');
type Jq = Awaited<ReturnType<JqModule['loadJq']>>;

let jqP: Promise<Jq> | undefined;

/** jq's exit code for a program that does not compile. */
const COMPILE_ERROR = 3;

export interface JqFilter {
  /** Runs the filter on the value and writes its results to stdout. */
  write(value: unknown): void;
}

/** Loads jq and checks the expression compiles (a usage error, exit 2, when it does not). */
export async function loadJqFilter(ctx: OutputContext, expression: string): Promise<JqFilter> {
  const { loadJq } = await import('jq-wasm');
  const jq = await (jqP ??= loadJq());
  // Compiled, never run: `if false` keeps the filter from running on a null input (it could loop or
  // fail); the newlines keep a trailing `# comment` from swallowing the closing parenthesis.
  const check = jq.raw('null', `if false then (\n${expression}\n) else empty end`, ['-n']);
  if (check.exitCode === COMPILE_ERROR) {
    // The expression alone gives jq's message with the user's own line and column; it does not
    // compile either (so it does not run), unless only the wrapper broke it.
    const alone = jq.raw('null', expression, ['-n']);
    throw new UsageError(`--jq: ${compileMessage(alone.exitCode === COMPILE_ERROR ? alone.stderr : check.stderr)}`);
  }
  const flags = ['-c'];
  return {
    write(value) {
      const result = jq.raw(stringifyJson(value), expression, flags);
      emit(ctx, jqResultText(result.stdout, ctx.io.stdoutIsTTY));
      // A runtime failure (`error("x")`, `.[]` on a number) after the results before it, as jq does: exit 1.
      if (result.exitCode !== 0) throw new FailureError(`--jq: ${runtimeMessage(result.stderr)}`);
    },
  };
}

/** jq's first line, without its "jq: error: " prefix. */
function compileMessage(stderr: string): string {
  return stderr
    .split('\n')[0]!
    .replace(/^jq: error: /, '')
    .replace(/ at <top-level>/, '')
    .replace(/:$/, '');
}

function runtimeMessage(stderr: string): string {
  const first = stderr.split('\n').find((l) => l.trim() !== '') ?? 'the filter failed';
  return first.replace(/^jq: error \(at [^)]*\): /, '').replace(/^jq: error: /, '');
}

// --jq EXPR: the JSON output through real jq (jq 1.8 compiled to WebAssembly, the jq-wasm package),
// so a script needs no jq installed and gets jq's own semantics. The wasm (~1 MB) is loaded only by a
// run that uses --jq, and runs on a worker thread (./jq-worker: Ctrl-C ends any filter at once). The value
// goes to jq as lossless JSON text, so a big integer jq passes through unchanged (`.id`) keeps its
// digits; one jq computes with becomes a double, as in jq itself. Its input is bounded (./jq-input).
// Strings are printed raw and values compact when piped, indented on a terminal, as gh does
// (jq-text.ts lays out and escapes what jq returns).
import { FailureError, UsageError } from '../base/errors';
import { jqInputOf, outOfMemory } from './jq-input';
import { jqResultText } from './jq-text';
import { JqAbortedError, type JqResult, type JqRunner, startJq } from './jq-worker';
import { emit, type OutputContext } from './sink';

/** jq's exit code for a program that does not compile. */
const COMPILE_ERROR = 3;

export interface JqFilter {
  /** Runs the filter on the value and writes its results to stdout. */
  write(value: unknown): Promise<void>;
  /** The same for input already made JSON text (a list's array: ./jq-input's JqListInput). */
  writeJson(json: string): Promise<void>;
  /** Ends the worker (a stream's filter, kept for its next record); a one-shot filter ends by itself. */
  close(): void;
}

/**
 * Loads jq and checks the expression compiles (a usage error, exit 2, when it does not). The worker
 * ends after the first write, or, with `stream` (records that come while a command runs: listen,
 * watch), stays for the next one until close() (idle, it does not keep the process alive).
 */
export async function loadJqFilter(ctx: OutputContext, expression: string, opts: { stream?: boolean } = {}): Promise<JqFilter> {
  const jq = await startJq(ctx.signal);
  try {
    // Compiled, never run: `if false` keeps the filter from running on a null input (it could loop or
    // fail); the newlines keep a trailing `# comment` from swallowing the closing parenthesis.
    const check = await jq.raw('null', `if false then (\n${expression}\n) else empty end`, ['-n']);
    if (check.exitCode === COMPILE_ERROR) {
      // The expression alone gives jq's message with the user's own line and column; it does not
      // compile either (so it does not run), unless only the wrapper broke it.
      const alone = await jq.raw('null', expression, ['-n']);
      throw new UsageError(`--jq: ${compileMessage(alone.exitCode === COMPILE_ERROR ? alone.stderr : check.stderr)}`);
    }
  } catch (err) {
    jq.close();
    throw err;
  }
  const flags = ['-c'];
  const writeJson = async (json: string) => {
    try {
      const result = await run(jq, json, expression, flags);
      emit(ctx, jqResultText(result.stdout, ctx.io.stdoutIsTTY));
      // A runtime failure (`error("x")`, `.[]` on a number) after the results before it, as jq does: exit 1.
      if (result.exitCode !== 0) throw new FailureError(`--jq: ${runtimeMessage(result.stderr)}`);
    } catch (err) {
      jq.close();
      throw err;
    } finally {
      if (!opts.stream) jq.close();
    }
  };
  return { write: (value) => writeJson(jqInputOf(value)), writeJson, close: () => jq.close() };
}

/** jq's run; its WebAssembly running out of memory part-way is said as such (exit 1). */
async function run(jq: JqRunner, json: string, expression: string, flags: string[]): Promise<JqResult> {
  try {
    return await jq.raw(json, expression, flags);
  } catch (err) {
    if (err instanceof JqAbortedError) throw outOfMemory(json.length);
    throw err;
  }
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

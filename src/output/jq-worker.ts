// jq (jq-wasm) on a worker thread. A filter can run for ever (`last(range(1e11))`) inside one
// synchronous WebAssembly call: on the main thread no signal handler could run meanwhile, so Ctrl-C
// and SIGTERM were ignored. Here the main thread stays free; on abort it terminates the worker
// (V8 stops WebAssembly loops at their interrupt checks), and the run ends with 130 at once.
//
// The worker is inline source (eval), so that the same code runs from the bundle and from src/
// under the tests; it requires jq-wasm by the absolute path the main thread resolved, from
// node_modules as before (never bundled).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { JqLoadOptions, JqResult } from 'jq-wasm';
import { InterruptedError } from '../base/errors';

export type { JqResult };

/** jq's WebAssembly ran out of its memory (or otherwise aborted): the instance is gone. */
export class JqAbortedError extends Error {}

// Plain JavaScript, run as the worker's CommonJS main. Emscripten prints "Aborted()" through
// console.error when jq runs out of memory; a worker's console goes to our stderr, so it is silenced
// (the main thread reports the abort in its own words).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
console.error = console.warn = console.log = () => {};
require(workerData.jqPath).loadJq({ wasmModule: workerData.wasmModule }).then((jq) => {
  parentPort.on('message', ({ input, query, flags }) => {
    let reply;
    try { reply = { result: jq.raw(input, query, flags) }; }
    catch (err) { reply = { aborted: String((err && err.message) || err) }; }
    parentPort.postMessage(reply);
  });
  parentPort.postMessage({ ready: true });
}, (err) => parentPort.postMessage({ failed: String((err && err.message) || err) }));
`;

type Reply = { ready: true } | { failed: string } | { result: JqResult } | { aborted: string };

export interface JqRunner {
  /** jq's `raw`: the input as JSON text, the filter, jq's flags. */
  raw(input: string, query: string, flags: string[]): Promise<JqResult>;
  close(): void;
}

// jq's WebAssembly, compiled once for the process and given to each worker (jq-wasm's documented
// `wasmModule` option; a worker receives a WebAssembly.Module without a copy of its code). A run
// starts jq once, so this changes nothing for it; a process that starts jq many times (the tests,
// which run the CLI in-process) compiles jq's functions once instead of in every worker: ~100 ms of
// CPU a start on node 20, 65 on node 24.
let compiled: Promise<WasmModule> | undefined;
function jqModule(): Promise<WasmModule> {
  // From src/ (tests) or dist/cli.cjs (the bundle, where import.meta.url is the bundle's): both
  // resolve the package's own node_modules.
  compiled ??= readFile(createRequire(import.meta.url).resolve('jq-wasm/jq.wasm'))
    .then((bytes) => wasm.compile(bytes))
    .catch((err: unknown) => {
      compiled = undefined;
      throw err;
    });
  return compiled;
}

type WasmModule = NonNullable<JqLoadOptions['wasmModule']>;
// Node's global WebAssembly, which @types/node 20 does not declare.
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly;

/** Starts jq on a worker thread; `signal` terminates it (and rejects what waits) with InterruptedError. */
export async function startJq(signal: AbortSignal | undefined): Promise<JqRunner> {
  const wasmModule = await jqModule().catch((err: unknown) => {
    throw new Error(`jq could not start: ${err instanceof Error ? err.message : String(err)}`);
  });
  if (signal?.aborted) throw new InterruptedError();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { jqPath: createRequire(import.meta.url).resolve('jq-wasm'), wasmModule },
    stdout: true,
    stderr: true,
  });
  let waiting: { resolve(reply: Reply): void; reject(err: Error): void } | undefined;
  const fail = (err: Error) => {
    waiting?.reject(err);
    waiting = undefined;
  };
  worker.on('message', (reply: Reply) => {
    waiting?.resolve(reply);
    waiting = undefined;
  });
  worker.on('error', (err) => fail(new JqAbortedError(err.message)));
  worker.on('exit', () => fail(new JqAbortedError('jq stopped')));
  const onAbort = () => {
    void worker.terminate();
    fail(new InterruptedError());
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const next = () =>
    new Promise<Reply>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      waiting = { resolve, reject };
    });
  const close = () => {
    signal?.removeEventListener('abort', onAbort);
    void worker.terminate();
  };
  try {
    const ready = await next();
    if ('failed' in ready) throw new Error(`jq could not start: ${ready.failed}`);
  } catch (err) {
    close();
    throw err;
  }
  // Idle, the worker does not keep the process alive (a list that failed never runs its filter);
  // while jq works, it does: nothing else may be left for the event loop to wait on.
  worker.unref();
  return {
    async raw(input, query, flags) {
      const reply = next();
      worker.ref();
      worker.postMessage({ input, query, flags });
      const r = await reply.finally(() => worker.unref());
      if ('result' in r) return r.result;
      close();
      throw new JqAbortedError('aborted' in r ? r.aborted : 'jq stopped');
    },
    close,
  };
}

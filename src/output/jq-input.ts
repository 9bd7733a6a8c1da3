// How much input --jq takes. jq-wasm's WebAssembly heap is capped at 256 MiB (in the .wasm itself),
// and jq needs far more than the JSON's size: measured with jq-wasm 3.0.0 (jq 1.8.2), 400,000 empty
// objects (1.1 MiB of JSON) fit and 700,000 (2 MiB) abort; 2,000,000 numbers fit and 2,500,000
// abort; 150,000 booking-like items (31 MiB) fit and 220,000 (45 MiB) abort. So the input is
// measured by an estimate of what jq will allocate for it, and refused past JQ_BUDGET, before jq
// starts (or, for a list, as soon as the pages so far pass it), with the way out: `-o ndjson | jq`.
import { stringifyJson } from './json';
import { FailureError } from '../base/errors';

/** The most jq memory (estimated, bytes) an input may need; the rest of the 256 MiB is the filter's. */
const JQ_BUDGET = 192 * 2 ** 20;

// Bytes jq allocates, fitted to the measurements above (conservatively: booking-like items are
// estimated at about twice what they take): each object or array, each value after a comma, and
// each byte of text twice (the input string copied in, and the strings parsed out of it).
const PER_CONTAINER = 384;
const PER_VALUE = 128;
const PER_BYTE = 2;

/** jq's memory for this JSON text, estimated from its brackets and commas (those inside strings count too). */
function jqCost(json: string): number {
  let cost = PER_BYTE * json.length + PER_VALUE;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) cost += PER_CONTAINER;
    else if (c === 0x2c) cost += PER_VALUE;
  }
  return cost;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

const WAY_OUT = 'use -o ndjson | jq instead (one item per line), or --limit';

/** One line: the size and the way out. */
function tooLarge(what: string): FailureError {
  return new FailureError(`--jq: ${what} is too large for the built-in jq (its memory is 256 MiB): ${WAY_OUT}`);
}

/** jq aborted part-way (the filter's own work outgrew its memory). */
export function outOfMemory(json: number): FailureError {
  return new FailureError(`--jq: jq ran out of its 256 MiB of memory running the filter on ${mib(json)} of JSON: ${WAY_OUT}`);
}

/** A single value as jq's input text, refused when over the budget. */
export function jqInputOf(value: unknown): string {
  const text = stringifyJson(value);
  if (jqCost(text) > JQ_BUDGET) throw tooLarge(`the input (${mib(text.length)} of JSON)`);
  return text;
}

/** A list's items as one JSON array, kept as text as they arrive (more compact than the objects). */
export class JqListInput {
  private parts: string[] = [];
  private cost = 0;
  private length = 2;

  /** Adds an item; throws once the items so far are over the budget (stopping the paging). */
  add(item: unknown): void {
    const text = stringifyJson(item);
    this.cost += jqCost(text) + PER_VALUE;
    this.length += text.length + 1;
    this.parts.push(text);
    if (this.cost > JQ_BUDGET) {
      const count = this.parts.length;
      this.clear();
      throw tooLarge(`the list (${count.toLocaleString('en')} items so far, ${mib(this.length)} of JSON)`);
    }
  }

  text(): string {
    return `[${this.parts.join(',')}]`;
  }

  clear(): void {
    this.parts = [];
  }
}

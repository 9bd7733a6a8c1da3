// A big body is parsed in pieces (src/output/json-pieces.ts): its arrays a batch of elements at a
// time, its long strings decoded from its bytes, the rest around them. The value must be parseMarked's
// (JSON.parse's, numbers exact) for every body, and an error exactly where JSON.parse has one: seeded
// documents shaped as listings (duplicate and escaped keys, long strings with escapes, raw control
// characters, brackets that do not match), each also with one byte changed, parsed with tiny batches
// and a tiny long-string size so that every body is cut into many pieces.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/base/errors';
import { scanJson, scanJsonInTurns } from '../../src/base/json-scan';
import { parseMarked, stringifyJson } from '../../src/output/json';
import { parseInPieces } from '../../src/output/json-pieces';
import { jsonGen, rng } from '../helpers/json-gen';

const LONG = 12;

type Outcome = { value: string } | { error: true };

function whole(body: Buffer): Outcome {
  const scan = scanJson(body);
  try {
    return { value: stringifyJson(parseMarked(body, 0, scan.numbers, scan.nulStrings)) };
  } catch {
    return { error: true };
  }
}

async function inPieces(body: Buffer, batchBytes: number, onTurn = () => {}): Promise<Outcome> {
  const turn = async () => onTurn();
  const scan = await scanJsonInTurns(body, 0, 7, turn, LONG);
  try {
    return { value: stringifyJson(await parseInPieces(body, 0, scan, turn, batchBytes)) };
  } catch (err) {
    if (err instanceof InterruptedError) throw err;
    return { error: true };
  }
}

function listing(random: () => number): string {
  const gen = jsonGen(random);
  const int = (n: number) => Math.floor(random() * n);
  const long = () => {
    const inner = ['x'.repeat(LONG + int(30)), `a\\n${'é'.repeat(LONG)}\\"b`, `\\u0000${'y'.repeat(LONG)}`, `${'z'.repeat(LONG)}\u0001`];
    return `"${inner[int(inner.length)]}"`;
  };
  const element = () => (random() < 0.2 ? long() : random() < 0.3 ? `{"note":${long()},"id":${gen.number()}}` : gen.value(3));
  const array = () => `[${Array.from({ length: int(12) }, element).join(random() < 0.2 ? ' , ' : ',')}]`;
  switch (int(6)) {
    case 0:
      return array();
    case 1:
      return `{"data":${array()},"meta":${gen.value(2)}}`;
    case 2:
      return `{"data":${array()},"d\\u0061ta":${random() < 0.5 ? array() : gen.value(1)}}`;
    case 3:
      return `{ "a" : ${array()} , "b":${long()}, "c":${array()}, "a":${array()} }`;
    case 4:
      return long();
    default:
      return ['[ ]', '[1,]', '[,1]', '{"data":[1}', '{"data":[1,2', '[1,2]]', '{"data":[1],}', '[[1,2],[3]]'][int(8)]!;
  }
}

describe('a body parsed in pieces', () => {
  it('gives what parseMarked gives, value or error, over 400 seeded listings and a one-byte change of each', async () => {
    for (let seed = 1; seed <= 400; seed++) {
      const random = rng(seed);
      const text = listing(random);
      const bodies = [Buffer.from(text)];
      const changed = Buffer.from(text);
      if (changed.length > 0) changed[Math.floor(random() * changed.length)] = '[]{},:"\\ 0x'.charCodeAt(Math.floor(random() * 11));
      bodies.push(changed);
      for (const body of bodies) {
        const want = whole(body);
        for (const batch of [1, 40, 1 << 20]) expect(await inPieces(body, batch), `seed ${seed} batch ${batch}: ${body}`).toEqual(want);
      }
    }
  });

  it('keeps a long string whole, its escapes decoded, and stops at a turn that throws', async () => {
    const body = Buffer.from(
      `{"data":[${Array.from({ length: 50 }, (_, i) => `{"id":${12345678901234567890n + BigInt(i)}}`).join(',')}],"blob":"${'x'.repeat(40)}\\t"}`,
    );
    let turns = 0;
    const got = await inPieces(body, 64, () => turns++);
    expect(got).toEqual(whole(body));
    expect(turns).toBeGreaterThan(10);
    await expect(
      inPieces(body, 64, () => {
        if (++turns > 30) throw new InterruptedError();
      }),
    ).rejects.toBeInstanceOf(InterruptedError);
  });
});

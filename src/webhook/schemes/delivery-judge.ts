// The one entry point for judging a delivery under whichever scheme applies: the one --scheme names,
// else the one its headers show (the seed's first when it carries two). The seed's scheme keeps its
// own streaming judge (verdict.ts), unchanged; the others are judged on the body in memory
// (verify-scheme.ts). The verdict names the scheme whenever it is not the seed's by default, and the
// other schemes whose headers the delivery also carries.
import { UsageError } from '../../base/errors';
import type { Sink } from '../input';
import type { Secret } from '../signature';
import type { BodyDigests } from '../body-digest';
import { fromHeaders, judge, judgeBody as judgeServiceBody, type Verdict } from '../verdict';
import type { AgeRule } from './age';
import { schemeNamed, schemesIn } from './index';
import type { SchemeName } from './names';
import { valuesOf, type Scheme } from './scheme';
import { judgeScheme, schemeKeys } from './verify-scheme';

export interface JudgeRun {
  /** --scheme, when given. */
  chosen?: SchemeName;
  secrets: Secret[];
  age: AgeRule;
  expectedEvent?: string;
}

interface Picked {
  scheme: Scheme;
  /** Whether the verdict names the scheme: chosen, or other than the seed's, or one of several. */
  named: boolean;
  others: string[];
}

export class DeliveryJudge {
  private readonly keys = new Map<SchemeName, Buffer[]>();

  /** A chosen scheme's keys are made at once: a secret that cannot be one is exit 2 before anything is read. */
  constructor(private readonly run: JudgeRun) {
    if (run.chosen !== undefined) this.keysFor(schemeNamed(run.chosen));
  }

  pick(rawHeaders: string[]): Picked {
    if (this.run.chosen !== undefined) return { scheme: schemeNamed(this.run.chosen), named: true, others: [] };
    const found = schemesIn(rawHeaders);
    const scheme = found[0] ?? schemeNamed('service');
    const others = found.slice(1).map((s) => s.name);
    return { scheme, named: scheme.name !== 'service' || others.length > 0, others };
  }

  /** A delivery held in memory (listen, a HAR entry). */
  async judgeBody(rawHeaders: string[], body: Buffer): Promise<Verdict> {
    const picked = this.pick(rawHeaders);
    if (picked.scheme.name === 'service') {
      return this.named(picked, await judgeServiceBody(this.run.secrets, rawHeaders, body, this.run.expectedEvent), rawHeaders);
    }
    return this.other(picked, rawHeaders, body);
  }

  /**
   * A capture whose body was streamed once through SecretsDigest (`digests`); `again` streams it
   * again, for the rewrite hints of the seed's scheme or the body of another.
   */
  async judgeStreamed(rawHeaders: string[], digests: BodyDigests[], again: ((sink: Sink) => Promise<void>) | undefined): Promise<Verdict> {
    const picked = this.pick(rawHeaders);
    const { secrets, expectedEvent } = this.run;
    if (picked.scheme.name === 'service') {
      return this.named(picked, await judge({ secrets, ...fromHeaders(rawHeaders), digests, again, expectedEvent }), rawHeaders);
    }
    if (!again) throw new UsageError('the capture could not be kept in memory for a second pass; read it from a file.');
    const chunks: Buffer[] = [];
    await again((chunk) => chunks.push(Buffer.from(chunk)));
    return this.other(picked, rawHeaders, Buffer.concat(chunks));
  }

  private other(picked: Picked, rawHeaders: string[], body: Buffer): Verdict {
    const { secrets, age, expectedEvent } = this.run;
    const verdict = judgeScheme(picked.scheme, rawHeaders, body, { secrets, keys: this.keysFor(picked.scheme), age, expectedEvent });
    if (picked.others.length) return { ...verdict, otherSchemes: picked.others };
    return verdict.authentic ? verdict : { ...verdict, reason: `${verdict.reason}${elsewhere(picked.scheme, rawHeaders)}` };
  }

  private named(picked: Picked, verdict: Verdict, rawHeaders: string[]): Verdict {
    if (!picked.named) return verdict;
    if (picked.others.length) return { ...verdict, scheme: 'service', otherSchemes: picked.others };
    const reason = verdict.authentic ? verdict.reason : `${verdict.reason}${elsewhere(picked.scheme, rawHeaders)}`;
    return { ...verdict, reason, scheme: 'service' };
  }

  private keysFor(scheme: Scheme): Buffer[] {
    let keys = this.keys.get(scheme.name);
    if (!keys) {
      keys = schemeKeys(scheme, this.run.secrets);
      this.keys.set(scheme.name, keys);
    }
    return keys;
  }
}

/**
 * A delivery without `scheme`'s signature header that carries another scheme's: " (it carries
 * Stripe-Signature: --scheme stripe)", for its reason; else "".
 */
function elsewhere(scheme: Scheme, rawHeaders: string[]): string {
  if (valuesOf(rawHeaders, scheme.signatureHeader).length) return '';
  const found = schemesIn(rawHeaders);
  if (!found.length) return '';
  return ` (it carries ${found.map((s) => s.signatureHeader).join(', ')}: --scheme ${found.map((s) => s.name).join(' or ')})`;
}

/** A body as a receiver has it: digested as it arrived, and/or whole in memory. */
interface ReceivedBody {
  digests?: BodyDigests[];
  again?: (sink: Sink) => Promise<void>;
  body?: Buffer;
}

export interface ReceiverJudge {
  /** The secrets to digest a body with as it arrives; undefined when the scheme judges it whole (body). */
  streamed?: Secret[];
  judge(rawHeaders: string[], got: ReceivedBody): Promise<Verdict>;
}

/**
 * How a receiver (listen) judges each delivery: in `chosen`, or in the seed's scheme as ever when none
 * is chosen, its reason then pointing at another scheme's header when the delivery carries one (a
 * Stripe endpoint pointed at a receiver of the seed's deliveries). The seed's scheme is judged on
 * digests made as the body arrived (no need to hold it whole); another on the body in memory. A
 * chosen scheme's keys are made at once: a secret that is no key of it is exit 2 before listening.
 */
export function receiverJudge(chosen: SchemeName | undefined, secrets: Secret[], age: AgeRule): ReceiverJudge {
  if (chosen === undefined) {
    const service = schemeNamed('service');
    return {
      streamed: secrets,
      judge: async (rawHeaders, got) => {
        const verdict = await judge({ secrets, ...fromHeaders(rawHeaders), digests: got.digests!, again: got.again });
        return verdict.authentic ? verdict : { ...verdict, reason: `${verdict.reason}${elsewhere(service, rawHeaders)}` };
      },
    };
  }
  const judged = new DeliveryJudge({ chosen, secrets, age });
  if (chosen === 'service')
    return { streamed: secrets, judge: (rawHeaders, got) => judged.judgeStreamed(rawHeaders, got.digests!, got.again) };
  return { judge: (rawHeaders, got) => judged.judgeBody(rawHeaders, got.body!) };
}

// The schemes' diagnoses (each in the style of the seed's: what is wrong, and what likely made it so),
// the scheme named in every output format, HAR entries and captures of two schemes, send and listen in
// a scheme. The whole loop per scheme is in webhook-schemes-loop.test.ts.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process';
import { tempDir } from '../helpers/webhook-kit';
import { startListen } from '../helpers/listen-kit';

const SECRET = 'whsec_c2NoZW1lcy10ZXN0'; // base64 after whsec_: a key in every scheme
const BODY = '{"id":"evt_1","type":"booking.created","triggerEvent":"BOOKING_CREATED","data":{"booking":{"uid":"bk_1"}}}';
const T = 1_795_597_923;
const AT = ['--at', String(T + 1)];
const tmp = tempDir({ 'secret.txt': `${SECRET}\n` });
afterAll(() => tmp.cleanup());
let n = 0;

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data);
const standardKey = Buffer.from(SECRET.slice(6), 'base64');

function capture(headers: [string, string][], body = BODY): string {
  const path = tmp.path(`s${++n}.http`);
  const head = ['POST /hooks HTTP/1.1', ...headers.map(([k, v]) => `${k}: ${v}`), `Content-Length: ${Buffer.byteLength(body)}`];
  writeFileSync(path, `${head.join('\r\n')}\r\n\r\n${body}`);
  return path;
}

interface Judged {
  code: number | null;
  stderr: string;
  [field: string]: unknown;
}

async function verdictOf(path: string, ...more: string[]): Promise<Judged> {
  const r = await runMain(['webhook', 'verify', '--request', path, '--secret-file', tmp.path('secret.txt'), '-o', 'json', ...AT, ...more]);
  return { code: r.code, stderr: r.stderr, ...(JSON.parse(r.stdout) as Record<string, unknown>[])[0]! };
}

const stripeHeader = (data: string, t = T) => `t=${t},v1=${hmac(SECRET, data).digest('hex')}`;
const standardHeaders = (data: string, sig = hmac(standardKey, data).digest('base64')): [string, string][] => [
  ['webhook-id', 'msg_1'],
  ['webhook-timestamp', String(T)],
  ['webhook-signature', `v1,${sig}`],
];

describe('diagnoses, per scheme', () => {
  it('Cal.com: "no-secret-provided" says the webhook has no secret', async () => {
    const v = await verdictOf(capture([['X-Cal-Signature-256', 'no-secret-provided']]));
    expect(v).toMatchObject({ code: 1, authentic: false, scheme: 'cal', hints: ['no_secret'] });
    expect(v.reason).toBe(
      'Cal.com: X-Cal-Signature-256 is "no-secret-provided": the webhook has no secret in Cal.com, so nothing was signed (give it one in Cal.com\'s webhook settings)',
    );
  });

  it('Cal.com: a sha256= prefix is named, and that the digest itself matches', async () => {
    const v = await verdictOf(capture([['X-Cal-Signature-256', `sha256=${hmac(SECRET, BODY).digest('hex')}`]]));
    expect(v).toMatchObject({ authentic: false, hints: ['encoding'] });
    expect(v.reason).toBe(
      'Cal.com: X-Cal-Signature-256 has a sha256= prefix; Cal.com writes 64 lowercase hex digits and no prefix (the digest itself matches the body)',
    );
  });

  it('Standard Webhooks: hex where base64 belongs', async () => {
    const hex = hmac(standardKey, `msg_1.${T}.${BODY}`).digest('hex');
    const v = await verdictOf(capture([...standardHeaders('', 'x').slice(0, 2), ['webhook-signature', `v1,${hex}`]]));
    expect(v).toMatchObject({ authentic: false, hints: ['encoding'] });
    expect(v.reason).toBe(
      'Standard Webhooks: v1 is hex; Standard Webhooks writes 44 characters of base64 (the digest itself matches the body)',
    );
  });

  it('the signed string built wrongly: body alone for Stripe, "<t>.<body>" for Standard Webhooks', async () => {
    const stripe = await verdictOf(capture([['Stripe-Signature', `t=${T},v1=${hmac(SECRET, BODY).digest('hex')}`]]));
    expect(stripe).toMatchObject({
      hints: ['signed_string'],
      reason: 'Stripe: the signature is over the body alone, not t.body: the signed string was built wrongly',
    });
    const standard = await verdictOf(capture(standardHeaders(`${T}.${BODY}`)));
    expect(standard).toMatchObject({
      hints: ['signed_string'],
      reason: 'Standard Webhooks: the signature is over "<t>.<body>", not id.t.body: the signed string was built wrongly',
    });
  });

  it("the secret in the wrong form: a whsec_ secret's text where Standard Webhooks takes its decoded bytes", async () => {
    const v = await verdictOf(capture(standardHeaders(`msg_1.${T}.${BODY}`, hmac(SECRET, `msg_1.${T}.${BODY}`).digest('base64'))));
    expect(v).toMatchObject({ hints: ['secret_form'] });
    expect(v.reason).toBe(
      "Standard Webhooks: the signature matches with the secret's text as given as the key, but Standard Webhooks uses whsec_<base64>: the decoded bytes: the secret was used in the wrong form",
    );
  });

  it('a body re-serialised after signing, and a newline added, are told apart from a wrong secret', async () => {
    const pretty = JSON.stringify(JSON.parse(BODY), null, 2);
    const re = await verdictOf(capture([['Stripe-Signature', stripeHeader(`${T}.${BODY}`)]], pretty));
    expect(re).toMatchObject({ hints: ['reserialised'] });
    expect(re.reason).toMatch(
      /^Stripe: the body matches once written again as compact JSON: it was parsed and re-serialised after signing/,
    );
    const lf = await verdictOf(capture([['Stripe-Signature', stripeHeader(`${T}.${BODY}`)]], `${BODY}\n`));
    expect(lf).toMatchObject({ hints: ['trailing_lf'] });
    const otherSecret = `t=${T},v1=${hmac('whsec_someone_else', `${T}.${BODY}`).digest('hex')}`;
    const wrong = await verdictOf(capture([['Stripe-Signature', otherSecret]]));
    expect(wrong).toMatchObject({
      hints: [],
      reason: 'Stripe: the signature does not match the body: a different secret, or the body was changed',
    });
  });

  it('missing headers are each named; a header of another scheme under --scheme is pointed at', async () => {
    const v = await verdictOf(capture([['webhook-signature', 'v1,abc']]));
    expect(v.reason).toBe('Standard Webhooks: no webhook-id header; no webhook-timestamp header');
    const forced = await verdictOf(capture([['X-Cal-Signature-256', hmac(SECRET, BODY).digest('hex')]]), '--scheme', 'stripe');
    expect(forced.reason).toBe('Stripe: no Stripe-Signature header (it carries X-Cal-Signature-256: --scheme cal)');
    const stripeBare = await verdictOf(capture([['Stripe-Signature', hmac(SECRET, BODY).digest('hex')]]));
    expect(stripeBare.reason).toMatch(/^Stripe: malformed Stripe-Signature header: it has no t= timestamp/);
  });
});

describe('the verdict names the scheme in every output format', () => {
  const path = () => capture([['Stripe-Signature', stripeHeader(`${T}.${BODY}`)]]);
  const run = (...args: string[]) =>
    runMain(['webhook', 'verify', '--request', path(), '--secret-file', tmp.path('secret.txt'), ...AT, ...args]);

  it('table, tsv, json, ndjson and --jq', async () => {
    expect((await run('-o', 'table')).stdout).toMatch(/^✓ authentic {2}booking\.created {2}\d+ bytes {2}\S+ {2}scheme stripe\n$/);
    expect((await run('-o', 'tsv')).stdout.trimEnd().split('\t').at(-1)).toBe('stripe');
    expect(JSON.parse((await run('-o', 'json')).stdout)[0].scheme).toBe('stripe');
    expect(JSON.parse((await run('-o', 'ndjson')).stdout).scheme).toBe('stripe');
    expect((await run('--jq', '.[0].scheme')).stdout).toBe('stripe\n');
  });

  it("a seed's capture says nothing new by default, and names its scheme under --scheme service", async () => {
    const sig = `sha256=${hmac(SECRET, BODY).digest('hex')}`;
    const seed = capture([
      ['X-Service-Event', 'booking.created'],
      ['X-Service-Signature', sig],
    ]);
    expect((await verdictOf(seed)).scheme).toBeUndefined();
    expect((await verdictOf(seed, '--scheme', 'service')).scheme).toBe('service');
  });

  it("two schemes' headers: the seed's is checked and the other named; --scheme picks", async () => {
    const sig = `sha256=${hmac(SECRET, BODY).digest('hex')}`;
    const both = capture([
      ['X-Service-Event', 'booking.created'],
      ['X-Service-Signature', sig],
      ['Stripe-Signature', stripeHeader(`${T}.${BODY}`)],
    ]);
    expect(await verdictOf(both)).toMatchObject({ authentic: true, scheme: 'service', otherSchemes: ['stripe'] });
    expect(await verdictOf(both, '--scheme', 'stripe')).toMatchObject({ authentic: true, scheme: 'stripe' });
    const line = await runMain(['webhook', 'verify', '--request', both, '--secret-file', tmp.path('secret.txt'), '-o', 'table']);
    expect(line.stdout).toContain('scheme service (also stripe: --scheme picks)');
  });

  it('a HAR entry is recognised by its Stripe-Signature header', async () => {
    const har = tmp.path('stripe.har');
    const request = {
      method: 'POST',
      url: 'http://x/hooks',
      headers: [{ name: 'Stripe-Signature', value: stripeHeader(`${T}.${BODY}`) }],
      postData: { mimeType: 'application/json', text: BODY },
    };
    writeFileSync(har, JSON.stringify({ log: { entries: [{ request }] } }));
    expect(await verdictOf(har)).toMatchObject({ file: `${har}#0`, authentic: true, scheme: 'stripe' });
  });

  it('a body with --signature and --scheme standard --id --timestamp', async () => {
    const body = tmp.path('body.json');
    writeFileSync(body, BODY);
    const sig = `v1,${hmac(standardKey, `msg_1.${T}.${BODY}`).digest('base64')}`;
    const base = ['webhook', 'verify', body, '--scheme', 'standard', '--signature', sig, '--secret-file', tmp.path('secret.txt'), ...AT];
    expect((await runMain([...base, '--id', 'msg_1', '--timestamp', String(T)])).stdout).toBe(
      `authentic\tbooking.created\t${BODY.length}\t\tstandard\n`,
    );
    const missing = await runMain(base);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/give --id and --timestamp/);
  });
});

describe('send and listen in a scheme', () => {
  it('send --request replays a Stripe capture: re-signed in the scheme with a secret, else with its own headers', async () => {
    const own = stripeHeader(`${T}.${BODY}`);
    const path = capture([
      ['Content-Type', 'application/json'],
      ['Stripe-Signature', own],
    ]);
    const curl = (...more: string[]) =>
      runMain(['webhook', 'send', 'http://127.0.0.1:9/hooks', '--request', path, '--scheme', 'stripe', '--print-curl', ...more]);
    const unsigned = await curl();
    expect(unsigned.stdout).toContain(`-H 'Stripe-Signature: ${own}'`);
    const resigned = await curl('--secret-file', tmp.path('secret.txt'));
    expect(resigned.stdout).toMatch(/-H 'Stripe-Signature: t=\d+,v1=[0-9a-f]{64}'/);
    expect(resigned.stdout).not.toContain(own);
    expect(resigned.stdout.match(/Stripe-Signature/g)).toHaveLength(1);
    // Without --scheme: recognised by its header, as verify does.
    const auto = await runMain(['webhook', 'send', 'http://127.0.0.1:9/hooks', '--request', path, '--print-curl']);
    expect(auto.stdout).toContain(`-H 'Stripe-Signature: ${own}'`);
    expect(auto.stdout).not.toContain('X-Service');
  });

  it('listen without --scheme answers a Stripe delivery 401 and says which scheme it is in', async () => {
    const listener = await startListen({ secret: SECRET, save: false });
    const sent = await runMain(['webhook', 'send', listener.url, '--scheme', 'stripe', '--event', 'booking.created', '--secret', SECRET]);
    await listener.stop();
    expect(sent.code).toBe(1);
    expect(listener.out()).toMatch(
      /\tno X-Service-Signature header; no X-Service-Event header \(it carries Stripe-Signature: --scheme stripe\)\t/,
    );
  });

  it("--event checks the scheme's own event names (Cal.com's triggerEvent)", async () => {
    const path = capture([['X-Cal-Signature-256', hmac(SECRET, BODY).digest('hex')]]);
    expect(await verdictOf(path, '--event', 'BOOKING_CREATED')).toMatchObject({ code: 0, authentic: true });
    expect(await verdictOf(path, '--event', 'BOOKING_CANCELLED')).toMatchObject({
      authentic: false,
      hints: ['event'],
      reason: 'the delivery is "BOOKING_CREATED", not "BOOKING_CANCELLED" (--event); its signature is valid',
    });
  });
});

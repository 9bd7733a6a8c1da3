// Cross-checks against each scheme's reference: the `standardwebhooks` package (Svix's spec library)
// and the `stripe` package's generateTestHeaderString / constructEvent, and the published formulas of
// Cal.com (hex HMAC of the body) and Calendly (t=…,v1= over "<t>.<body>"). Deliveries they sign verify
// here with no --scheme (recognised by their headers), ours verify there, and a tampered body fails in
// both; an old one fails naming its age, and --at verifies it as of its arrival.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process';
import { tempDir } from '../helpers/webhook-kit';

const STANDARD_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const STRIPE_SECRET = 'whsec_test_stripe_0123456789';
const PLAIN_SECRET = 'cal_or_calendly_secret_42';
const BODY =
  '{"id":"evt_1","type":"booking.created","triggerEvent":"BOOKING_CREATED","event":"invitee.created","data":{"booking":{"uid":"bk_1"}}}';
const TAMPERED = BODY.replace('bk_1', 'bk_2');
const stripe = new Stripe('sk_test_reference_only');
const now = () => Math.floor(Date.now() / 1000);

const tmp = tempDir({ 'standard.txt': `${STANDARD_SECRET}\n`, 'stripe.txt': `${STRIPE_SECRET}\n`, 'plain.txt': `${PLAIN_SECRET}\n` });
afterAll(() => tmp.cleanup());
let n = 0;

/** A raw capture with these headers and body, written to a temp file; its path. */
function capture(headers: [string, string][], body = BODY): string {
  const text = [
    'POST /hooks HTTP/1.1',
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
  const path = tmp.path(`c${++n}.http`);
  writeFileSync(path, text);
  return path;
}

async function verify(path: string, secretFile: string, ...more: string[]) {
  const r = await runMain(['webhook', 'verify', '--request', path, '--secret-file', tmp.path(secretFile), '-o', 'json', ...more]);
  return { ...r, verdicts: r.stdout ? (JSON.parse(r.stdout) as Record<string, unknown>[]) : [] };
}

async function signHere(scheme: string, secretFile: string, body: string, ...more: string[]): Promise<Record<string, string>> {
  const file = tmp.path(`body${++n}.json`);
  writeFileSync(file, body);
  const r = await runMain(['webhook', 'sign', file, '--scheme', scheme, '--secret-file', tmp.path(secretFile), '-o', 'json', ...more]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { headers: Record<string, string> }).headers;
}

describe('Standard Webhooks, against the standardwebhooks package', () => {
  const wh = new Webhook(STANDARD_SECRET);
  const headersOf = (id: string, t: number, sig: string): [string, string][] => [
    ['webhook-id', id],
    ['webhook-timestamp', String(t)],
    ['webhook-signature', sig],
  ];

  it('its signature verifies here with no --scheme; a tampered body fails naming the scheme', async () => {
    const t = now();
    const sig = wh.sign('msg_1', new Date(t * 1000), BODY);
    const ok = await verify(capture(headersOf('msg_1', t, sig)), 'standard.txt');
    expect(ok.code).toBe(0);
    expect(ok.verdicts[0]).toMatchObject({ authentic: true, scheme: 'standard', event: 'booking.created' });
    const bad = await verify(capture(headersOf('msg_1', t, sig), TAMPERED), 'standard.txt');
    expect(bad.code).toBe(1);
    expect(bad.verdicts[0]!.reason).toMatch(/^Standard Webhooks: the signature does not match the body/);
  });

  it('ours verifies there; tampered, it fails there too', async () => {
    const h = await signHere('standard', 'standard.txt', BODY, '--id', 'msg_ours');
    expect(Object.keys(h)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(wh.verify(BODY, h)).toMatchObject({ id: 'evt_1' });
    expect(() => wh.verify(TAMPERED, h)).toThrow(/No matching signature/);
  });

  it('an old delivery fails there and here, naming its age; --at verifies it as of its arrival', async () => {
    const t = now() - 3600;
    const sig = wh.sign('msg_old', new Date(t * 1000), BODY);
    expect(() => wh.verify(BODY, Object.fromEntries(headersOf('msg_old', t, sig)))).toThrow(/too old/);
    const path = capture(headersOf('msg_old', t, sig));
    const old = await verify(path, 'standard.txt');
    expect(old.code).toBe(1);
    expect(old.verdicts[0]).toMatchObject({ authentic: false, hints: ['expired'] });
    expect(old.verdicts[0]!.reason).toMatch(
      /^Standard Webhooks: the signature matches the body, but the timestamp \d+ \(.*\) is 1 h old, beyond the 5 min tolerance/,
    );
    expect((await verify(path, 'standard.txt', '--at', String(t + 2))).code).toBe(0);
    expect((await verify(path, 'standard.txt', '--ignore-age')).code).toBe(0);
    expect((await verify(path, 'standard.txt', '--tolerance', '2h')).code).toBe(0);
  });

  it('a rotation: two signatures in the header, the verdict names the secret and signature that matched', async () => {
    const other = new Webhook('whsec_b3RoZXJrZXk=');
    const t = now();
    const sig = `${other.sign('msg_2', new Date(t * 1000), BODY)} ${wh.sign('msg_2', new Date(t * 1000), BODY)}`;
    const secrets = tmp.path('standard-both.txt');
    writeFileSync(secrets, `whsec_dW51c2Vk\n${STANDARD_SECRET}\n`);
    const r = await runMain([
      'webhook',
      'verify',
      '--request',
      capture(headersOf('msg_2', t, sig)),
      '--secret-file',
      secrets,
      '-o',
      'json',
    ]);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ authentic: true, secret: `${secrets}:2`, signature: 'v1 #2', scheme: 'standard' });
  });

  it("Svix's own header names (svix-id, svix-timestamp, svix-signature) are recognised as Standard Webhooks", async () => {
    const t = now();
    const sig = wh.sign('msg_svix', new Date(t * 1000), BODY);
    const svix: [string, string][] = [
      ['svix-id', 'msg_svix'],
      ['svix-timestamp', String(t)],
      ['svix-signature', sig],
    ];
    expect((await verify(capture(svix), 'standard.txt')).verdicts[0]).toMatchObject({ authentic: true, scheme: 'standard' });
    expect((await verify(capture(svix, TAMPERED), 'standard.txt')).verdicts[0]!.reason).toMatch(
      /^Standard Webhooks: the signature does not match/,
    );
  });

  it('a secret that is not base64 after whsec_ is exit 2 with the reason', async () => {
    const secrets = tmp.path('bad-standard.txt');
    writeFileSync(secrets, 'whsec_sandbox\n');
    const r = await runMain(['webhook', 'verify', '--request', capture(headersOf('m', now(), 'v1,x')), '--secret-file', secrets]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `the secret from ${secrets} is not a Standard Webhooks secret (whsec_ and the base64 of the key): its 7 characters after whsec_ are not a whole number of base64 groups of 4.`,
    );
    expect(r.stdout).toBe('');
  });
});

describe("Stripe's scheme, against the stripe package", () => {
  it('generateTestHeaderString verifies here with no --scheme; tampered fails naming Stripe', async () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: STRIPE_SECRET });
    const ok = await verify(capture([['Stripe-Signature', header]]), 'stripe.txt');
    expect(ok.verdicts[0]).toMatchObject({ authentic: true, scheme: 'stripe', event: 'booking.created' });
    const bad = await verify(capture([['Stripe-Signature', header]], TAMPERED), 'stripe.txt');
    expect(bad.verdicts[0]!.reason).toMatch(/^Stripe: the signature does not match the body/);
  });

  it('ours passes constructEvent; tampered, constructEvent throws too', async () => {
    const h = await signHere('stripe', 'stripe.txt', BODY);
    const event = stripe.webhooks.constructEvent(BODY, h['Stripe-Signature']!, STRIPE_SECRET);
    expect(event.id).toBe('evt_1');
    expect(() => stripe.webhooks.constructEvent(TAMPERED, h['Stripe-Signature']!, STRIPE_SECRET)).toThrow(/No signatures found matching/);
  });

  it('an old one fails in constructEvent and here naming its age; --at passes it', async () => {
    const t = now() - 2 * 86_400;
    const header = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: STRIPE_SECRET, timestamp: t });
    expect(() => stripe.webhooks.constructEvent(BODY, header, STRIPE_SECRET)).toThrow(/outside the tolerance zone/);
    const path = capture([['Stripe-Signature', header]]);
    expect((await verify(path, 'stripe.txt')).verdicts[0]!.reason).toMatch(
      /^Stripe: the signature matches the body, but the timestamp \d+ \(.*\) is 2 days old, beyond the 5 min tolerance/,
    );
    expect((await verify(path, 'stripe.txt', '--at', new Date(t * 1000 + 60_000).toISOString())).code).toBe(0);
  });

  it('a timestamp far in the future fails', async () => {
    const t = now();
    const header = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: STRIPE_SECRET, timestamp: t + 3600 });
    // --at pins "now", so the age in the reason is exact.
    const r = await verify(capture([['Stripe-Signature', header]]), 'stripe.txt', '--at', String(t));
    expect(r.verdicts[0]).toMatchObject({ authentic: false, hints: ['future'] });
    expect(r.verdicts[0]!.reason).toContain('is 1 h in the future');
  });

  it('several v1= during a rotation: the one that matched is named', async () => {
    const t = now();
    const mine = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: STRIPE_SECRET, timestamp: t });
    const theirs = stripe.webhooks.generateTestHeaderString({ payload: BODY, secret: 'whsec_other', timestamp: t });
    const header = `${theirs},${mine.split(',')[1]}`;
    const r = await verify(capture([['Stripe-Signature', header]]), 'stripe.txt');
    expect(r.verdicts[0]).toMatchObject({ authentic: true, signature: 'v1 #2' });
  });
});

describe('Cal.com and Calendly, against their published formulas', () => {
  const hex = (data: string) => createHmac('sha256', PLAIN_SECRET).update(data).digest('hex');

  it('Cal.com: hex of the body in X-Cal-Signature-256, the event from triggerEvent; tampered fails', async () => {
    const ok = await verify(capture([['X-Cal-Signature-256', hex(BODY)]]), 'plain.txt');
    expect(ok.verdicts[0]).toMatchObject({ authentic: true, scheme: 'cal', event: 'BOOKING_CREATED' });
    expect((await signHere('cal', 'plain.txt', BODY))['X-Cal-Signature-256']).toBe(hex(BODY));
    const bad = await verify(capture([['X-Cal-Signature-256', hex(BODY)]], TAMPERED), 'plain.txt');
    expect(bad.verdicts[0]!.reason).toMatch(/^Cal\.com: the signature does not match the body/);
  });

  it('Calendly: t=…,v1= over "<t>.<body>"; tampered fails; old fails naming its age', async () => {
    const t = now();
    const header = `t=${t},v1=${hex(`${t}.${BODY}`)}`;
    expect((await signHere('calendly', 'plain.txt', BODY, '--timestamp', String(t)))['Calendly-Webhook-Signature']).toBe(header);
    const ok = await verify(capture([['Calendly-Webhook-Signature', header]]), 'plain.txt');
    expect(ok.verdicts[0]).toMatchObject({ authentic: true, scheme: 'calendly', event: 'invitee.created' });
    const bad = await verify(capture([['Calendly-Webhook-Signature', header]], TAMPERED), 'plain.txt');
    expect(bad.verdicts[0]!.reason).toMatch(/^Calendly: the signature does not match/);
    const old = t - 600;
    const oldPath = capture([['Calendly-Webhook-Signature', `t=${old},v1=${hex(`${old}.${BODY}`)}`]]);
    expect((await verify(oldPath, 'plain.txt')).verdicts[0]).toMatchObject({ authentic: false, hints: ['expired'] });
    expect((await verify(oldPath, 'plain.txt', '--at', String(t))).verdicts[0]!.reason).toMatch(
      /^Calendly: the signature matches the body, but the timestamp \d+ \(.*\) is 10 min old/,
    );
  });
});

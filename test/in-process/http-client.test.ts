// The HTTP core as a user meets it: what is sent (URL, key, headers) and what an error says.
import { afterEach, describe, expect, it } from 'vitest';
import { BASE, KEY, closeRigs, failure, rig, type Rig } from '../helpers/http-mock';

let r: Rig | undefined;
afterEach(closeRigs);

describe('requests', () => {
  it('sends the key, Accept and User-Agent, and joins paths under a base URL with a path prefix', async () => {
    for (const baseUrl of [`${BASE}/prefix`, `${BASE}/prefix/`]) {
      r = rig(() => ({ body: { ok: true } }), { baseUrl });
      const res = await r.client.get('/api/v1/me');
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      const [req] = r.seen();
      expect(req!.path).toBe('/prefix/api/v1/me');
      expect(req!.authorization).toBe(`Bearer ${KEY}`);
      expect(req!.headers.accept).toBe('application/json');
      expect(req!.headers['user-agent']).toMatch(/^booking-cli\//);
    }
  });

  it('encodes query parameters, leaves out undefined ones and keeps a query already in the path', async () => {
    r = rig(() => ({ body: [] }));
    await r.client.get('/api/v1/bookings?x=1&status=old', { query: { status: 'a b&c=d', limit: 10, cursor: undefined } });
    const [req] = r.seen();
    expect(req!.path).toBe('/api/v1/bookings?x=1&status=a%20b%26c%3Dd&limit=10');
    expect(req!.query.get('status')).toBe('a b&c=d');
  });

  it('keeps numbers lossless in json()', async () => {
    r = rig(() => ({ raw: '{"id":12345678901234567890}', headers: { 'content-type': 'application/json' } }));
    const body = (await r.client.get('/api/v1/me')).json() as { id: { toString(): string } };
    expect(body.id.toString()).toBe('12345678901234567890');
  });
});

describe('error messages', () => {
  it('404 names method, path and the server message (exit 4)', async () => {
    r = rig(() => ({ status: 404, body: { message: 'booking not found' } }));
    const e = await failure(r.client.get('/api/v1/bookings/zz'));
    expect(e).toMatchObject({ message: 'GET /api/v1/bookings/zz: 404 Not Found: booking not found', exitCode: 4 });
  });

  it('401 and 403 are auth errors (exit 3) with a login hint; error.message is read', async () => {
    r = rig((_req, n) => ({ status: n === 1 ? 401 : 403, body: { error: { message: 'invalid api key' } } }));
    const e401 = await failure(r.client.get('/api/v1/me'));
    expect(e401).toMatchObject({ message: 'GET /api/v1/me: 401 Unauthorized: invalid api key', exitCode: 3, hint: 'run: booking login' });
    const e403 = await failure(r.client.get('/api/v1/me'));
    expect(e403).toMatchObject({ message: 'GET /api/v1/me: 403 Forbidden: invalid api key', exitCode: 3 });
  });

  it('reads error, detail and title, in that order of preference', async () => {
    const bodies = [{ error: 'bad status', title: 'x' }, { detail: 'limit too large', title: 'Bad Request' }, { title: 'Unprocessable' }];
    r = rig((_req, n) => ({ status: 400, body: bodies[n - 1] }));
    const said = [];
    for (let i = 0; i < bodies.length; i++)
      said.push((await failure(r.client.get('/api/v1/bookings', { query: { limit: 1000 } }))).message);
    expect(said).toEqual([
      'GET /api/v1/bookings?limit=1000: 400 Bad Request: bad status',
      'GET /api/v1/bookings?limit=1000: 400 Bad Request: limit too large',
      'GET /api/v1/bookings?limit=1000: 400 Bad Request: Unprocessable',
    ]);
  });

  it('reads JSON:API errors[0].detail/title, Rails-style {errors: {field: [...]}} and OAuth error_description', async () => {
    const bodies = [
      { errors: [{ status: '422', title: 'Invalid Attribute', detail: 'status must be one of …' }] },
      { errors: [{ title: 'Conflict' }] },
      { errors: { status: ['is invalid'], limit: ['must be at most 100'] } },
      { error: 'invalid_token', error_description: 'The access token expired' },
    ];
    r = rig((_req, n) => ({ status: 422, body: bodies[n - 1] }));
    const said = [];
    for (let i = 0; i < bodies.length; i++) said.push((await failure(r.client.get('/api/v1/bookings'))).message);
    expect(said).toEqual([
      'GET /api/v1/bookings: 422 Unprocessable Entity: status must be one of …',
      'GET /api/v1/bookings: 422 Unprocessable Entity: Conflict',
      'GET /api/v1/bookings: 422 Unprocessable Entity: status is invalid; limit must be at most 100',
      'GET /api/v1/bookings: 422 Unprocessable Entity: invalid_token: The access token expired',
    ]);
  });

  it('a server that quotes the key back in its message does not get it printed', async () => {
    r = rig(() => ({ status: 401, body: { message: `invalid token: Bearer ${KEY}` } }));
    const e = await failure(r.client.get('/api/v1/me'));
    expect(e.message).toBe('GET /api/v1/me: 401 Unauthorized: invalid token: Bearer ****');
  });

  it('escapes control characters of the server message onto one line and caps its length', async () => {
    r = rig(() => ({ status: 400, body: { message: `bad\n\u001b[31mred\u0007 ${'x'.repeat(500)}` } }));
    const { message, exitCode } = await failure(r.client.get('/api/v1/me'));
    expect(exitCode).toBe(1);
    expect(message).toContain('bad\\n\\x1b[31mred\\x07 xxx');
    expect(message).not.toMatch(/[\u0000-\u001f]/);
    expect(message.length).toBeLessThan(260);
    expect(message.endsWith('…')).toBe(true);
  });

  it('an HTML error page gives the status alone, never the page', async () => {
    r = rig(() => ({ status: 500, raw: '<html><body>Oops</body></html>', headers: { 'content-type': 'text/html' } }));
    expect((await failure(r.client.get('/api/v1/me'))).message).toBe('GET /api/v1/me: 500 Internal Server Error');
  });

  it('json() on a non-JSON or cut-off body is one line naming the request and the content type', async () => {
    r = rig((_req, n) =>
      n === 1
        ? { raw: '<html>maintenance</html>', headers: { 'content-type': 'text/html; charset=utf-8' } }
        : { raw: '{"data":[{"uid":"a"},', headers: { 'content-type': 'application/json' } },
    );
    const html = await r.client.get('/api/v1/bookings');
    const e1 = await failure(Promise.resolve().then(() => html.json()));
    expect(e1.exitCode).toBe(1);
    expect(e1.message).toMatch(/^GET \/api\/v1\/bookings: the response is not valid JSON \(content-type text\/html; charset=utf-8\)/);
    const cut = await r.client.get('/api/v1/bookings');
    const e2 = await failure(Promise.resolve().then(() => cut.json()));
    expect(e2.message).toMatch(/^GET \/api\/v1\/bookings: the response is not valid JSON \(content-type application\/json\)/);
    expect(e2.message).not.toContain('\n');
  });

  it('a refused connection says where it tried to connect (exit 1) after the retries', async () => {
    r = rig(() => ({ error: 'ECONNREFUSED' }), { baseUrl: 'https://api.example.test:9' });
    const e = await failure(r.client.get('/api/v1/me'));
    expect(e).toMatchObject({
      message: 'GET /api/v1/me: cannot connect to api.example.test:9 (ECONNREFUSED) (after 3 retries)',
      exitCode: 1,
    });
    expect(r.seen()).toHaveLength(4);
  });

  it('a refused connection to loopback is said at once: nothing listens there, retrying changes nothing', async () => {
    r = rig(() => ({ error: 'ECONNREFUSED' }), { baseUrl: 'http://127.0.0.1:9' });
    const e = await failure(r.client.get('/api/v1/me'));
    expect(e).toMatchObject({ message: 'GET /api/v1/me: cannot connect to 127.0.0.1:9 (ECONNREFUSED)', exitCode: 1 });
    expect(r.seen()).toHaveLength(1);
  });
});

describe('where the key may go', () => {
  it('refuses http:// to a non-loopback host (exit 2), naming --allow-http', async () => {
    const e = await failure(Promise.resolve().then(() => rig(() => ({}), { baseUrl: 'http://api.example.test' })));
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain('clear text');
    expect(e.hint).toContain('--allow-http');
  });

  it('allows http:// to loopback, or anywhere with --allow-http', async () => {
    for (const baseUrl of ['http://127.0.0.1:4010', 'http://127.8.9.10', 'http://localhost:4010', 'http://[::1]:4010']) {
      r = rig(() => ({ body: {} }), { baseUrl });
      await expect(r.client.get('/api/v1/me')).resolves.toMatchObject({ status: 200 });
    }
    r = rig(() => ({ body: {} }), { baseUrl: 'http://api.example.test', globals: { allowHttp: true } });
    await expect(r.client.get('/api/v1/me')).resolves.toMatchObject({ status: 200 });
  });

  it('follows a same-origin redirect with the key', async () => {
    r = rig((req) => (req.url.pathname === '/old' ? { status: 301, headers: { location: '/new?x=1' } } : { body: { moved: true } }));
    const res = await r.client.get('/old');
    expect(res.json()).toEqual({ moved: true });
    expect(res.url.href).toBe(`${BASE}/new?x=1`);
    expect(r.seen().map((s) => [s.path, s.authorization])).toEqual([
      ['/old', `Bearer ${KEY}`],
      ['/new?x=1', `Bearer ${KEY}`],
    ]);
  });

  it('refuses a redirect to another origin, naming it, and never contacts it', async () => {
    r = rig(() => ({ status: 302, headers: { location: 'https://evil.example.net/steal' } }));
    r.route('https://evil.example.net', () => ({ body: {} }));
    const e = await failure(r.client.get('/api/v1/me'));
    expect(e.exitCode).toBe(1);
    expect(e.message).toContain('GET /api/v1/me: redirected to https://evil.example.net/steal');
    expect(e.message).toContain('https://evil.example.net is not the base URL');
    expect(r.seen('https://evil.example.net')).toHaveLength(0);
  });

  it('refuses an absolute URL on another origin (a next-page link) without sending anything', async () => {
    r = rig(() => ({ body: {} }));
    r.route('https://evil.example.net', () => ({ body: {} }));
    for (const url of ['https://evil.example.net/api/v1/bookings?cursor=2', '//evil.example.net/x', 'https://api.example.test:8443/x']) {
      const e = await failure(r.client.get(url));
      expect(e.exitCode).toBe(1);
      expect(e.message).toMatch(/is not the base URL's origin \(https:\/\/api\.example\.test\); not sending your API key there\.$/);
    }
    expect(r.seen('https://evil.example.net')).toHaveLength(0);
    expect(r.seen()).toHaveLength(0);
  });
});

describe('--debug', () => {
  it('prints one line per request and response, and a retry, never the key', async () => {
    r = rig((_req, n) => (n === 1 ? { status: 503, body: {} } : { body: { ok: 1 } }), { globals: { debug: true } });
    await r.client.get('/api/v1/bookings', { query: { limit: 10 } });
    const lines = r.io.err().trimEnd().split('\n');
    expect(lines[0]).toBe(`> GET ${BASE}/api/v1/bookings?limit=10`);
    expect(lines[1]).toMatch(/^< 503 Service Unavailable 2 bytes \d+ms$/);
    expect(lines[2]).toMatch(/^! retry 1\/3 in [\d.]+s after 503 Service Unavailable$/);
    expect(lines[4]).toMatch(/^< 200 OK 8 bytes \d+ms$/);
    expect(r.io.err()).not.toContain(KEY);
    expect(r.io.err().toLowerCase()).not.toContain('authorization');
  });
});

// @ts-check
// The one process that touches the OS keyring. @napi-rs/keyring connects to D-Bus synchronously in
// its constructor and may wait there for ever (a bus that never answers, a locked keyring's prompt),
// and a worker thread stuck in native code keeps even process.exit() from returning. So booking runs
// keyring calls here, in a child it can kill when the time bound or Ctrl-C comes.
//
// Protocol: one JSON request on stdin ({ops: [{op, service, account, secret?}]}), one JSON line on
// stdout ({results: [{ok: true, value} | {ok: false, error}]}). Several lookups share one child
// (`booking profiles`). The key travels only through these pipes: never in arguments or environment.
'use strict';

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  input += chunk;
});
process.stdin.on('end', () => {
  let results;
  try {
    const { Entry } = require('@napi-rs/keyring');
    results = JSON.parse(input).ops.map((op) => attempt(() => run(Entry, op)));
  } catch (err) {
    results = [{ ok: false, error: message(err) }];
  }
  process.stdout.write(`${JSON.stringify({ results })}\n`);
});

function attempt(fn) {
  try {
    return { ok: true, value: fn() };
  } catch (err) {
    return { ok: false, error: message(err) };
  }
}

function run(Entry, { op, service, account, secret }) {
  // Secret Service only on Linux: the binding would otherwise fall back to the kernel keyring, which
  // forgets the key at logout; booking's own fallback is the file, said out loud.
  const entry = new Entry(service, account, { linux: { store: 'secret-service' } });
  if (op === 'get') return entry.getPassword() ?? null;
  if (op === 'set') return entry.setPassword(secret) ?? null;
  if (op === 'delete') return entry.deletePassword();
  throw new Error(`unknown keyring operation ${op}`);
}

function message(err) {
  return String(err?.message || err);
}

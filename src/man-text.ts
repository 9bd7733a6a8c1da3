// What the man pages say beyond the help (src/man.ts): the program's description, the exit codes,
// the environment and the files, as data a page picks from by what the command does. Kept in step
// with README.md's exit codes and docs/configuration.md's environment table.

/** booking(1)'s DESCRIPTION: what the README's first paragraphs say. */
export const PROGRAM_DESCRIPTION = [
  "booking is a command-line client for a scheduling service's JSON API and its signed webhooks. It shows the key's owner, lists bookings and event types (following the next page by itself, whatever the service's response shape), calls any other GET endpoint with your key, and checks, signs, receives and sends webhook deliveries signed with X-Service-Signature (HMAC-SHA256). booking sandbox runs a local fake of the service, so every command works without an account.",
  "Output is a table on a terminal (paged when longer than the screen), tsv in a pipe, or csv, JSON and NDJSON with -o; --jq filters JSON with jq's language, built in. Every format streams: the first rows appear while later pages are on their way. Control and bidi characters from a server never reach the terminal raw, and the key is masked wherever a server echoes it.",
  'Each command has its own page, named after its words: booking-bookings-list(1) for booking bookings list.',
];

/** What a command's DESCRIPTION adds, by what it does. */
export const DESCRIBES = {
  records:
    'It prints records: a table on a terminal (paged when longer than the screen), tsv in a pipe. -o csv, -o json, -o ndjson, --json FIELDS, --jq EXPR and --fields a,b.c shape them; --tz ZONE shows times in that zone (see booking(1)).',
  requests:
    "It talks to the service at the profile's base URL with the profile's key (--base-url, BOOKING_BASE_URL and BOOKING_API_KEY override them). The key is sent only to that origin. GET requests are retried on 429, 502, 503, 504 and lost connections (--retries); a request with no answer after a second says so on a terminal.",
  text: (what: string) => `It prints ${what}; -o, --json, --jq and --fields are refused (exit 2).`,
};

/** [code, meaning] of every exit status, as README.md's table. */
export const EXIT_CODES: [string, string][] = [
  ['0', 'success.'],
  ['1', 'failure: network, server error after retries, unexpected response, cut-off paging.'],
  ['2', 'usage: a bad option, argument or input file, a malformed or unsafe config, an unknown command.'],
  ['3', 'authentication: no key or base URL, or the service answered 401 or 403.'],
  ['4', 'not found: the service answered 404.'],
  ['5', 'rate limited: 429 still after the retries.'],
  ['130', 'interrupted by Ctrl-C (SIGINT).'],
];

/** Environment variables: [name, meaning, who reads it]. */
type Reader = 'all' | 'requests' | 'records' | 'secret';
export const ENVIRONMENT: [string, string, Reader][] = [
  ['BOOKING_PROFILE', 'the profile to use, as --profile (default: default).', 'all'],
  ['BOOKING_CONFIG_DIR', 'the folder of config.json, instead of $XDG_CONFIG_HOME/booking-cli.', 'all'],
  ['BOOKING_BASE_URL', "the service's base URL, as --base-url (which wins).", 'requests'],
  ['BOOKING_API_KEY', "the API key; wins over the profile's stored key (keyring or file).", 'requests'],
  ['BOOKING_KEY_STORE', 'keyring or file: where the key is saved and looked for.', 'requests'],
  ['BOOKING_KEYRING_TIMEOUT', 'seconds each OS keyring call may take (default 5).', 'requests'],
  [
    'HTTPS_PROXY, HTTP_PROXY, NO_PROXY',
    'the proxy for the service, and hosts to reach directly; never used for a loopback base URL.',
    'requests',
  ],
  ['BOOKING_WEBHOOK_SECRET', 'the webhook signing secret when neither --secret nor --secret-file is given.', 'secret'],
  ['BOOKING_TZ', 'the zone of times in tables, tsv and csv, as --tz (which wins): local, UTC or an IANA name.', 'records'],
  ['BOOKING_PAGER, PAGER', 'the pager for a terminal (default less -FRX); an empty BOOKING_PAGER turns it off.', 'records'],
  ['NO_COLOR, FORCE_COLOR, TERM', 'NO_COLOR (non-empty) or TERM=dumb: no colour; FORCE_COLOR: colour even in a pipe.', 'records'],
  ['BOOKING_DEBUG', '1 or true: as --debug.', 'requests'],
];

/** Files: [path, meaning]; the config file for every page, the captures folder where a command keeps them. */
export const CONFIG_FILE: [string, string] = [
  '~/.config/booking-cli/config.json',
  'the profiles ($XDG_CONFIG_HOME/booking-cli/config.json when XDG_CONFIG_HOME is set): base URL, settings and (when no OS keyring answers) the key; mode 0600 in a 0700 folder, used only when yours and writable by no one else. $BOOKING_CONFIG_DIR/config.json when that is set.',
];
export const CAPTURES: [string, string] = [
  'booking-captures/',
  'where webhook listen saves each delivery as a raw HTTP capture (--save-dir).',
];

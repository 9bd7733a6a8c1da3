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

/**
 * What exit 0 and 1 mean for a command whose answer is a verdict or a receiver's, not the service's
 * (by its words). Codes 3, 4 and 5 are the service's answers: a man page lists them only for the
 * commands that send requests to it.
 */
export const EXIT_MEANINGS: Record<string, Record<string, string>> = {
  'webhook verify': {
    '0': 'authentic: every delivery checked verified.',
    '1': 'not authentic: a signature did not match its body (each verdict says why it may be).',
  },
  'webhook send': {
    '0': 'every delivery was answered 2xx.',
    '1': 'a receiver answered anything else (401 included), or could not be reached.',
  },
};

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
  [
    'BOOKING_TZ',
    'the zone of times in tables, tsv and csv, as --tz (which wins): local, UTC, an IANA name or an offset (+05:30).',
    'records',
  ],
  [
    'TZ',
    'the local zone as the C library reads it (Europe/Berlin, :UTC): the zone of times in a table when no --tz, BOOKING_TZ or tz names one.',
    'records',
  ],
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

/**
 * Each command's DESCRIPTION, by its words (`bookings list`): what it does and how, in the manual's
 * words, beyond the one line its help starts with. A command without an entry is described from its
 * help alone. Aliases share their command's text (`auth login` is `login`'s).
 */
export const MANUAL: Record<string, string[]> = {
  login: [
    'Asks for the API key on a hidden prompt (or reads it from stdin with --with-key), checks it with GET /api/v1/me, and only when the service accepts it saves the base URL and the key to the profile. The key goes to the OS keyring (Secret Service, Keychain, Credential Manager) when one answers, else to config.json (mode 0600) with a one-line notice saying why; --insecure-storage or BOOKING_KEY_STORE=file choose the file. --no-verify saves without the check.',
  ],
  logout: [
    "Removes the profile's key from the OS keyring and from config.json, and says where it was found. The base URL and other settings stay.",
  ],
  whoami: [
    'Prints the owner of the key as the service describes it (GET /api/v1/me, unwrapped from a {"data": …} envelope). On a terminal, stderr adds the profile, the base URL and where the key came from (env, keyring or file), the key masked to its last four characters.',
  ],
  profiles: [
    'Lists every saved profile: its name, base URL, masked key, the store the key is in (keyring, file, or env when BOOKING_API_KEY overrides it), and which profile is active.',
  ],
  'auth token': [
    "Prints the profile's key on stdout, for a script (export KEY=$(booking auth token)). On a terminal a warning on stderr reminds that it is now on screen.",
  ],
  'bookings list': [
    'Lists bookings, every page of them: the next page is found by itself, whatever convention the service uses (a Link header, a cursor in the body, a next URL, a has-more flag), or by --cursor-path, --cursor-param and --cursor-from-last. -L N stops after N bookings; -s STATUS filters. When the service says there is more but names no next page, the bookings so far are printed and the command fails (exit 1), naming the flag to try; a walk never silently stops at the first page.',
    'Rows are written as pages arrive. A failure part-way leaves whole lines and names the --cursor to resume from.',
  ],
  'bookings get': [
    'Shows one booking, GET /api/v1/bookings/UID, the uid sent as one percent-encoded path segment. A table on a terminal shows key and value per line (times in the --tz zone); tsv shows key<TAB>value lines; csv a header row of the fields and one row.',
  ],
  'bookings watch': [
    'Polls the bookings list every --interval and prints what changed since the poll before: bookings added, changed (each field, old → new) and removed. --initial prints the current list first. It sends If-None-Match and If-Modified-Since when the service gave ETag or Last-Modified, honours 429 and Retry-After, and keeps flat memory however long it runs.',
  ],
  'event-types': ['Lists the event types (GET /api/v1/event-types), every page of them, as bookings list does.'],
  api: [
    'Sends a GET to any path under the base URL with your key, for endpoints the commands do not cover, and prints the body as sent (JSON pretty-printed, losslessly). -F key=value adds query parameters. --paginate follows the next pages as bookings list does and prints their items.',
  ],
  'webhook verify': [
    'Checks that a delivery is authentic: the raw body bytes (FILE, or stdin) against --signature, or whole HTTP request captures and HAR files with --request (a folder: every *.http in name order, duplicates marked). The HMAC-SHA256 digests are compared in constant time. On a mismatch it says why it may be (a trailing newline added, CRLF turned to LF, a BOM, another event), never the expected signature.',
  ],
  'webhook sign': [
    'Prints the X-Service-Signature value (sha256=<hex>) of a body, as the service would sign it, from its raw bytes (FILE, or stdin).',
  ],
  'webhook listen': [
    'A local receiver for development: it verifies each POST, answers 200 (or --respond STATUS) when authentic and 401 when not, prints one line per delivery, saves each as a raw capture that webhook verify --request accepts, and forwards authentic ones unchanged to --forward-to (EVENT=URL per event). Repeats of a delivery are shown as attempts of the first, with their spacing.',
  ],
  'webhook send': [
    'POSTs a signed delivery to a receiver, as the service would: a built-in sample body per --event with a fresh id and booking uid, or --body, or a saved capture with --request; --set PATH=VALUE changes one field and no other byte. --scenario sends an ordered series for one booking (--duplicate, --shuffle, --delay). Exit 0 when every delivery was answered 2xx, else 1.',
  ],
  sandbox: [
    'Runs a local, real HTTP fake of the service: bearer auth, the four endpoints with paging, limit and status, data generated from --seed, and a simulated booking lifecycle that sends signed deliveries of all six events to each --webhook-url (one change every --tick seconds). It prints its base URL, key and signing secret, and is what the demo and the test suite run against.',
  ],
  'config path': ['Prints the path of config.json (it may not exist yet).'],
  'config list': ["Prints the active profile's settings, the key masked."],
  'config get': ['Prints one setting of the profile (the key masked unless it is asked for by name).'],
  'config set': [
    'Saves one setting to the profile, checked first: baseUrl, apiKey, cursorPath, itemsPath, cursorParam, cursorFromLast, keyStore, tz.',
  ],
  'config unset': ['Removes one setting from the profile; removing its last one removes the profile.'],
  version: [
    'Prints the version of booking on stdout, as booking --version does, for a bug report or a script that needs a minimum version.',
  ],
  completion: [
    'Prints the completion script for bash, zsh or fish, made from the command tree (commands, options, their values, and profile names).',
  ],
};

// `booking webhook listen`'s flags, and what the receiver (server.ts) takes: a module of its own, so
// that the command's file (listen.ts) and the receiver both import the types and neither imports the other.
import { collect, intOption, listOption, sizeOption, durationOption } from '../../../base/options';
import { conflicting, option, type Values } from '../../define';
import type { WithSecrets } from '../shared/secret';
import { secretOptions } from '../shared/secret-options';
import { ageOptions, schemeOption } from '../shared/scheme-options';

/** --respond-delay's bound: longer than any sender's time-out worth testing, short of a hung run. */
const MAX_RESPOND_DELAY_MS = 120_000;

/** The flags of `webhook listen`, in help order. */
export const listenOptions = [
  option('--port <port>', 'port to listen on (0 picks a free one)', intOption(0, 65535), 8787),
  option('--host <host>', 'address to listen on', undefined, '127.0.0.1'),
  option(
    '--forward-to <[event=]url>',
    "forward authentic deliveries, unchanged, to this URL; EVENT=URL for that event's only (repeatable; a bare URL takes the rest)",
    collect((v: string) => v),
  ),
  option('--save-dir <dir>', 'where captures are saved', undefined, 'booking-captures'),
  conflicting(option('--no-save', 'do not save captures'), 'saveDir', 'maxSaved'),
  option(
    '--max-saved <size>',
    'stop saving when the save folder holds this much (500M, 2G); deliveries are still verified',
    sizeOption,
    1024 ** 3,
    '1G',
  ),
  option('--events <names>', 'show and forward only these events (comma-separated); others are answered 200 and counted', listOption),
  option('--respond <status>', 'answer authentic deliveries with this HTTP status (200-599), to watch a sender retry', intOption(200, 599)),
  option('--respond-after <n>', 'with --respond: answer so the first N attempts of each delivery only, then 200', intOption(0, 1000)),
  option(
    '--respond-delay <duration>',
    'wait this long before answering each delivery (250ms, 10s; at most 120s)',
    durationOption(MAX_RESPOND_DELAY_MS),
  ),
  schemeOption('verify deliveries in this scheme (default service)'),
  ...ageOptions(),
  ...secretOptions(),
];

/** What the receiver takes: the flags (each optional, as a test gives a few) and two settings for tests. */
export type ListenOptions = Partial<Omit<WithSecrets<Values<[], typeof listenOptions>>, 'forwardTo'>> & {
  /** --forward-to: one URL, or several values (EVENT=URL, and at most one bare URL). */
  forwardTo?: string | string[];
  /** Bytes of bodies held at once; a setting for tests, not an option. */
  maxInFlight?: number;
  /** A sender idle this long while sending its headers or body is cut; a setting for tests, not an option. */
  idleTimeoutMs?: number;
};

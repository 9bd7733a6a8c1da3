// listen --forward-to, per event: `--forward-to booking.cancelled=http://127.0.0.1:3000/cancel`
// (repeatable) sends that event's deliveries there; a bare URL takes every other event. One route per
// event and one bare URL at most: two targets for the same delivery would be a guess.
import { UsageError } from '../../../base/errors';
import { parseHttpUrl } from '../../../webhook/post';
import { visible } from '../../../webhook/text';

export interface ForwardRoutes {
  /** Where each named event goes. */
  byEvent: Map<string, URL>;
  /** Where every other event goes (a bare URL), if anywhere. */
  rest?: URL;
}

// An event name, then `=`, then the URL: the name has no `:` or `/`, so a URL's own `=` (in its query)
// is never taken for the separator.
const ROUTE = /^([A-Za-z0-9_.-]+)=(.+)$/;

/** The --forward-to values (one, or several with EVENT=URL), checked: a UsageError naming what is wrong. */
export function forwardRoutes(values: string | readonly string[] | undefined): ForwardRoutes | undefined {
  const list = typeof values === 'string' ? [values] : (values ?? []);
  if (list.length === 0) return undefined;
  const routes: ForwardRoutes = { byEvent: new Map() };
  for (const value of list) {
    const m = ROUTE.exec(value);
    if (m) {
      const [, event, url] = m as unknown as [string, string, string];
      if (routes.byEvent.has(event)) throw new UsageError(`--forward-to names ${visible(event)} twice: give each event one URL.`);
      routes.byEvent.set(event, parseHttpUrl(url, `--forward-to ${event}=`));
    } else {
      if (routes.rest) throw new UsageError('--forward-to: one bare URL at most (it takes every event not named with EVENT=URL).');
      routes.rest = parseHttpUrl(value, '--forward-to');
    }
  }
  return routes;
}

/** Where a delivery of this event goes, or undefined for nowhere. */
export function routeFor(routes: ForwardRoutes | undefined, event: string | null): URL | undefined {
  if (!routes) return undefined;
  return (event !== null ? routes.byEvent.get(event) : undefined) ?? routes.rest;
}

/** Every target, for the loop check at start. */
export function allTargets(routes: ForwardRoutes | undefined): URL[] {
  return routes ? [...routes.byEvent.values(), ...(routes.rest ? [routes.rest] : [])] : [];
}

/** The start-up line: `Authentic deliveries are forwarded: booking.cancelled to …; the rest to …`. */
export function routesHint(routes: ForwardRoutes): string {
  if (routes.byEvent.size === 0) return `Authentic deliveries are forwarded to ${routes.rest!.href}`;
  const named = [...routes.byEvent].map(([event, url]) => `${event} to ${url.href}`);
  const rest = routes.rest ? `; the rest to ${routes.rest.href}` : '; the rest are not forwarded';
  return `Authentic deliveries are forwarded: ${named.join(', ')}${rest}`;
}

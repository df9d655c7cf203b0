import { ErrorCollector } from '../common/errors';

/**
 * The pretix plugins whose behaviour this service implements, with pretix's plugin levels (pretix
 * `base/plugins.py`): `banktransfer` (manual payments; an event and organizer "hybrid" plugin), `sendmail`
 * (e-mail rules), `ticketoutputpdf` (PDF tickets), `checkinlists` (the check-in list exporter). They are always
 * active: `plugins` is the same list on every organizer (the organizer-level ones) and every event.
 */
const PLUGINS: Readonly<Record<string, 'event' | 'organizer' | 'hybrid'>> = {
  'pretix.plugins.banktransfer': 'hybrid',
  'pretix.plugins.checkinlists': 'event',
  'pretix.plugins.sendmail': 'event',
  'pretix.plugins.ticketoutputpdf': 'event',
};

/** `plugins` of every organizer: the organizer-level and hybrid plugins, sorted. */
export const ORGANIZER_PLUGINS: readonly string[] = Object.keys(PLUGINS)
  .filter((p) => PLUGINS[p] !== 'event')
  .sort();

/** `plugins` of every event: the event-level and hybrid plugins, sorted. */
export const EVENT_PLUGINS: readonly string[] = Object.keys(PLUGINS)
  .filter((p) => PLUGINS[p] !== 'organizer')
  .sort();

/**
 * Checks a written `plugins` list as pretix's `validate_plugins` does, adding the first refusal to `errors`
 * under `plugins`: "Unknown plugin: 'x'." for a plugin this service does not have, "Plugin cannot be enabled on
 * this level: 'x'." for one of the other level. A valid list changes nothing (the plugins are always active).
 */
export function checkPlugins(value: unknown, level: 'event' | 'organizer', errors: ErrorCollector): void {
  if (!Array.isArray(value)) {
    errors.add('plugins', `Expected a list of items but got type "${typeof value}".`);
    return;
  }
  for (const plugin of value) {
    const name = String(plugin);
    const pluginLevel = PLUGINS[name];
    if (typeof plugin !== 'string' || pluginLevel === undefined) {
      errors.add('plugins', `Unknown plugin: '${name}'.`);
      return;
    }
    if (pluginLevel !== 'hybrid' && pluginLevel !== level) {
      errors.add('plugins', `Plugin cannot be enabled on this level: '${name}'.`);
      return;
    }
  }
}

import type { I18nString } from '../../common/values/i18n';

/**
 * The channels every organizer has (created with the organizer, never deleted): `web` (pretix's default-created
 * online shop type, label "Online shop") and `api` (the channel of orders and carts created through this API;
 * pretix creates API channels on demand, this service has one from the start). Compat: pretix
 * `base/channels.py`.
 */
export const BUILT_IN_CHANNELS: readonly {
  identifier: string;
  type: string;
  label: I18nString;
  position: number;
}[] = [
  { identifier: 'web', type: 'web', label: { en: 'Online shop' }, position: 0 },
  { identifier: 'api', type: 'api', label: { en: 'API' }, position: 0 },
];

/** Identifiers of {@link BUILT_IN_CHANNELS}. */
export const BUILT_IN_IDENTIFIERS: readonly string[] = BUILT_IN_CHANNELS.map((c) => c.identifier);

/**
 * Sales channels of items, variations and discounts (compat §3.10 "Sales channels", §3.11): the rules live with
 * the organizer's channels (`organizers/sales-channels/channel-fields.ts`); the catalogue asks
 * `SalesChannelDirectory` for the organizer's identifiers and passes them in.
 */
export {
  legacySalesChannels,
  normalizeChannels,
  translateSalesChannels,
  type SalesChannelInput,
} from '../organizers/sales-channels/channel-fields';

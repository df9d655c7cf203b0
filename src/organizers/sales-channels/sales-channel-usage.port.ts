import type { EntityManager } from 'typeorm';

/**
 * Port: whether orders were placed through a sales channel (such a channel cannot be deleted: pretix
 * `SalesChannel.allow_delete`, "Can only be deleted if unused."). Declared here, provided by the orders context
 * (`SalesUsageModule`) and handed to OrganizersModule by `app.module.ts`; mandatory.
 */
export const SALES_CHANNEL_ORDERS = Symbol('SalesChannelOrders');
export interface SalesChannelOrders {
  /** Whether any order of the organizer's events has this `sales_channel`. */
  channelHasOrders(em: EntityManager, organizerId: number, identifier: string): Promise<boolean>;
}

/**
 * Port: forget a deleted channel wherever the catalogue names it (`limit_sales_channels` of items, variations and
 * discounts of the organizer's events), as pretix's many-to-many rows go with the channel. Provided by the
 * catalogue (`SalesChannelReferencesModule`); mandatory.
 */
export const SALES_CHANNEL_REFERENCES = Symbol('SalesChannelReferences');
export interface SalesChannelReferences {
  /** Removes `identifier` from every `limit_sales_channels` list of the catalogue of these events (the organizer's). */
  forgetChannel(em: EntityManager, eventIds: number[], identifier: string): Promise<void>;
}

/**
 * The action types a webhook can listen to (compat §5 "Registered action types"). A type ending in `.*` is a
 * wildcard: it matches every log action that starts with the part before the `*`.
 */
export const WEBHOOK_ACTION_TYPES: readonly string[] = [
  'pretix.event.order.placed',
  'pretix.event.order.placed.require_approval',
  'pretix.event.order.paid',
  'pretix.event.order.canceled',
  'pretix.event.order.reactivated',
  'pretix.event.order.expired',
  'pretix.event.order.expirychanged',
  'pretix.event.order.modified',
  'pretix.event.order.contact.changed',
  'pretix.event.order.changed.*',
  'pretix.event.order.refund.created',
  'pretix.event.order.refund.created.externally',
  'pretix.event.order.refund.requested',
  'pretix.event.order.refund.done',
  'pretix.event.order.refund.canceled',
  'pretix.event.order.refund.failed',
  'pretix.event.order.payment.confirmed',
  'pretix.event.order.approved',
  'pretix.event.order.denied',
  'pretix.event.order.deleted',
  'pretix.event.checkin',
  'pretix.event.checkin.reverted',
  'pretix.event.added',
  'pretix.event.changed',
  'pretix.event.deleted',
  'pretix.subevent.added',
  'pretix.subevent.changed',
  'pretix.subevent.deleted',
  'pretix.event.item.*',
  'pretix.event.live.activated',
  'pretix.event.live.deactivated',
  'pretix.event.testmode.activated',
  'pretix.event.testmode.deactivated',
  'pretix.event.orders.waitinglist.added',
  'pretix.event.orders.waitinglist.changed',
  'pretix.event.orders.waitinglist.deleted',
  'pretix.event.orders.waitinglist.voucher_assigned',
  'pretix.voucher.added',
  'pretix.voucher.changed',
  'pretix.voucher.deleted',
  'pretix.customer.created',
  'pretix.customer.changed',
  'pretix.customer.anonymized',
];

/** pretix's message for a type that is not registered (compat §3.27). */
export function invalidActionType(type: string): string {
  return `Invalid action type "${type}".`;
}

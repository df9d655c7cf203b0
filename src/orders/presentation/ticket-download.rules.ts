import type { DownloadJson } from './order-parts.presenter';

/** The ticket outputs of this service (pretix's `register_ticket_outputs`): only the PDF ticket. */
export const TICKET_OUTPUTS: readonly string[] = ['pdf'];

/**
 * pretix's event settings that decide ticket downloads. This service has no such settings yet, so every event
 * has pretix's defaults ({@link TICKET_DOWNLOAD_DEFAULTS}); an order's `valid_if_pending` still opens pending orders.
 */
export interface TicketDownloadSettings {
  /** `ticket_download_pending`: pending orders may download. */
  pending: boolean;
  /** `ticket_download_addons`: add-on positions get tickets of their own. */
  addons: boolean;
  /** `ticket_download_nonadm`: positions of non-admission products get tickets. */
  nonAdmission: boolean;
}

/** pretix's defaults of the download settings (`ticket_download_pending` false, `…_addons` false, `…_nonadm` true). */
export const TICKET_DOWNLOAD_DEFAULTS: TicketDownloadSettings = {
  pending: false,
  addons: false,
  nonAdmission: true,
};

/** pretix's 403 and 404 messages of the download endpoints (`api/views/order.py`). */
export const TICKET_DOWNLOAD_MESSAGES = {
  canceledOrExpired: 'Downloads are not available for canceled or expired orders.',
  pending: 'Downloads are not available for pending orders.',
  product: 'Downloads are not enabled for this product.',
  unknownOutput: 'Unknown output provider.',
} as const;

/** What the rule reads of an order. `status`: `n` pending, `p` paid, `e` expired, `c` canceled. */
export interface TicketOrderFacts {
  status: string;
  requireApproval: boolean;
  validIfPending: boolean;
}

/** What the rule reads of a position and its product (`generate_tickets` null: the event settings decide). */
export interface TicketPositionFacts {
  addonTo: number | null;
  canceled: boolean;
  itemAdmission: boolean;
  itemGenerateTickets: boolean | null;
}

/**
 * Why the order's tickets may not be downloaded, or null when they may (pretix: paid orders; pending ones only
 * when the event allows pending downloads or the order is `valid_if_pending`, and never while awaiting approval;
 * canceled and expired ones never). The one rule behind the download endpoints and the `downloads` fields.
 */
export function orderDownloadRefusal(
  order: TicketOrderFacts,
  settings: TicketDownloadSettings = TICKET_DOWNLOAD_DEFAULTS,
): string | null {
  if (order.status === 'c' || order.status === 'e') return TICKET_DOWNLOAD_MESSAGES.canceledOrExpired;
  if (order.status === 'p') return null;
  if (order.requireApproval || !(order.validIfPending || settings.pending))
    return TICKET_DOWNLOAD_MESSAGES.pending;
  return null;
}

/**
 * Whether a position gets a ticket (pretix `OrderPosition.generate_ticket`): the product's `generate_tickets` when
 * set; otherwise not for add-ons (unless `addons`) and not for non-admission products (unless `nonAdmission`).
 * Canceled positions never.
 */
export function generatesTicket(
  position: TicketPositionFacts,
  settings: TicketDownloadSettings = TICKET_DOWNLOAD_DEFAULTS,
): boolean {
  if (position.canceled) return false;
  if (position.itemGenerateTickets !== null) return position.itemGenerateTickets;
  return (settings.addons || position.addonTo === null) && (settings.nonAdmission || position.itemAdmission);
}

/** Why the position's ticket may not be downloaded, or null: the order's rule, then {@link generatesTicket}. */
export function positionDownloadRefusal(
  order: TicketOrderFacts,
  position: TicketPositionFacts,
  settings: TicketDownloadSettings = TICKET_DOWNLOAD_DEFAULTS,
): string | null {
  return (
    orderDownloadRefusal(order, settings) ??
    (generatesTicket(position, settings) ? null : TICKET_DOWNLOAD_MESSAGES.product)
  );
}

/** Root-relative path of an order's ticket download (`E/orders/{code}/download/{output}/`). */
export function orderDownloadPath(organizer: string, event: string, code: string, output: string): string {
  return `/api/v1/organizers/${organizer}/events/${event}/orders/${code}/download/${output}/`;
}

/** Root-relative path of a position's ticket download (`E/orderpositions/{id}/download/{output}/`). */
export function positionDownloadPath(organizer: string, event: string, id: number, output: string): string {
  return `/api/v1/organizers/${organizer}/events/${event}/orderpositions/${id}/download/${output}/`;
}

/** The `downloads` list: one entry per output, `toUrl` making each path absolute; empty when `allowed` is false. */
export function downloadsList(
  allowed: boolean,
  path: (output: string) => string,
  toUrl: (p: string) => string,
): DownloadJson[] {
  return allowed ? TICKET_OUTPUTS.map((output) => ({ output, url: toUrl(path(output)) })) : [];
}

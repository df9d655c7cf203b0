/**
 * Whether a scan admits (compat §3.21 "Semantics"): pure rules, unit-tested in `redeem.rules.spec.ts`. The redeem
 * service feeds them the locked position, the list and the position's earlier scans on that list.
 */

/** Reason codes of a refused scan (compat §3.21). */
export const REDEEM_REASONS = [
  'invalid',
  'already_redeemed',
  'unpaid',
  'canceled',
  'product',
  'revoked',
  'rules',
  'invalid_time',
  'blocked',
  'ambiguous',
  'incomplete',
  'error',
  'annulled',
] as const;
export type RedeemReason = (typeof REDEEM_REASONS)[number];

/** Human explanations of the reasons (what pretixSCAN shows). */
export const REASON_EXPLANATIONS: Record<RedeemReason, string> = {
  invalid: 'This ticket is not known.',
  already_redeemed: 'This ticket has already been redeemed.',
  unpaid: 'This order is not marked as paid.',
  canceled: 'This order has been canceled.',
  product: 'This ticket is not valid for this check-in list.',
  revoked: 'This ticket has been revoked.',
  rules: 'Entry not permitted by the check-in rules.',
  invalid_time: 'This ticket is not valid at this time.',
  blocked: 'This ticket has been blocked.',
  ambiguous: 'The scanned ticket matches more than one add-on product.',
  incomplete: 'Check-in questions need to be answered.',
  error: 'Unknown error.',
  annulled: 'This check-in was annulled.',
};

/** The list settings the rules read. */
export interface RedeemList {
  allProducts: boolean;
  itemIds: readonly number[];
  subeventId: number | null;
  includePending: boolean;
  allowMultipleEntries: boolean;
  allowEntryAfterExit: boolean;
}

/** The ticket as the rules see it. */
export interface RedeemTicket {
  orderStatus: string;
  canceled: boolean;
  itemId: number;
  subeventId: number | null;
  validFrom: Date | null;
  validUntil: Date | null;
  /** The pending order admits its tickets without `ignore_unpaid`. */
  validIfPending: boolean;
  /** The order awaits approval (never admitted while pending). */
  requireApproval: boolean;
  /** Scanned by a secret that was replaced. */
  revoked: boolean;
  /** The ticket carries a block (order position `blocked`). */
  blocked?: boolean;
}

/** What the scanner asked. */
export interface RedeemRequest {
  type: 'entry' | 'exit';
  force: boolean;
  ignoreUnpaid: boolean;
  canceledSupported: boolean;
  /** When the scan happened (UTC). */
  at: Date;
}

/** The ticket's earlier successful scans on this list. */
export interface EarlierScans {
  entries: number;
  /** Type of the last successful scan on the list, or null. */
  last: string | null;
}

/**
 * Decides a scan, in pretix's order: a revoked secret (unless forced: then the scan counts for its position), a
 * canceled ticket or an order neither paid nor pending (canceled, expired; even when forced; reported as `unpaid`
 * to scanners that do not support `canceled`), a blocked ticket (unless forced),
 * product and sub-event of the list, validity window (entries, unless forced), payment (pending admits only on a
 * list with `include_pending` and `ignore_unpaid`, or when the order is `valid_if_pending`, never while it awaits
 * approval; forced scans pass), then repeated entries (refused unless the
 * list allows multiple entries, or entry after exit and the last scan was an exit; forced scans pass). Exits pass
 * once the ticket is valid for the list. @returns null when the scan admits, else the reason
 */
export function refusal(
  list: RedeemList,
  ticket: RedeemTicket,
  req: RedeemRequest,
  earlier: EarlierScans,
): RedeemReason | null {
  if (ticket.revoked && !req.force) return 'revoked';
  // Canceled or expired: never admitted, not even forced (README "Security", "Check-in"; pretix: an order neither
  // paid nor pending is `canceled`, `unpaid` for scanners that do not know that code).
  if (ticket.canceled || (ticket.orderStatus !== 'p' && ticket.orderStatus !== 'n')) {
    return req.canceledSupported ? 'canceled' : 'unpaid';
  }
  if (ticket.blocked && !req.force) return 'blocked';
  if (!list.allProducts && !list.itemIds.includes(ticket.itemId)) return 'product';
  if (list.subeventId !== null && ticket.subeventId !== list.subeventId) return 'product';
  if (req.type === 'entry' && !req.force) {
    if (ticket.validFrom && ticket.validFrom.getTime() > req.at.getTime()) return 'invalid_time';
    if (ticket.validUntil && ticket.validUntil.getTime() < req.at.getTime()) return 'invalid_time';
  }
  if (ticket.orderStatus !== 'p' && !req.force) {
    const pendingAdmitted =
      ticket.orderStatus === 'n' &&
      !ticket.requireApproval &&
      (ticket.validIfPending || (list.includePending && req.ignoreUnpaid));
    if (!pendingAdmitted) return 'unpaid';
  }
  if (req.type === 'exit' || req.force || list.allowMultipleEntries || earlier.entries === 0) return null;
  if (list.allowEntryAfterExit && earlier.last === 'exit') return null;
  return 'already_redeemed';
}

/**
 * Add-on match (compat §3.21 `addon_match`): when the scanned ticket is not valid for a list limited to add-on
 * products, its one not-canceled add-on of a listed product is redeemed instead. @returns the add-on's id,
 * `ambiguous` when several match, or null when none does
 */
export function addonMatch(
  list: Pick<RedeemList, 'allProducts' | 'itemIds'>,
  addons: readonly { id: number; itemId: number; canceled: boolean }[],
): number | 'ambiguous' | null {
  if (list.allProducts) return null;
  const matching = addons.filter((a) => !a.canceled && list.itemIds.includes(a.itemId));
  if (matching.length > 1) return 'ambiguous';
  return matching[0]?.id ?? null;
}

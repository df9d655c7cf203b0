import { Injectable } from '@nestjs/common';

/** What blocking vouchers hold: places per quota, and which of the vouchers asked about block quota at all. */
export interface BlockingVouchers {
  /** Places held per quota id (quotas holding none are absent). */
  placesByQuota: Map<number, number>;
  /** The ids among `among` whose voucher has `block_quota` (whatever its validity or usage). */
  blocking: Set<number>;
}

/** A row of {@link VoucherQueries.blockingPlaces}: places held on a quota, or a blocking voucher among those asked. */
export interface BlockingRow {
  quota_id: number | null;
  n: number;
  voucher_id: number | null;
}

/**
 * The quota side of vouchers (compat §3.23, spec "Quota availability object" `blocking_vouchers`), for the quota
 * engine: a valid (`valid_until` not passed), `block_quota`, not used-up voucher holds `max_usages - redeemed`
 * places in the quotas of its quota, item or variation (and sub-event). Vouchers are grouped before they meet
 * the quotas, so 10,000 vouchers cost little.
 */
@Injectable()
export class VoucherBlocking {
  /** Turns the rows of {@link VoucherQueries.blockingPlaces} into places per quota and the blocking vouchers. */
  read(rows: readonly BlockingRow[]): BlockingVouchers {
    const out: BlockingVouchers = { placesByQuota: new Map(), blocking: new Set() };
    for (const r of rows) {
      if (r.voucher_id !== null) out.blocking.add(r.voucher_id);
      else if (r.quota_id !== null) out.placesByQuota.set(r.quota_id, r.n);
    }
    return out;
  }
}

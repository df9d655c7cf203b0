import { ApiProperty } from '@nestjs/swagger';
import { ApiInt, ApiMoney } from '../../common/http/api-schemas';

/** What occupies places, per quota or per product (README "Live figures"). */
export class StatsOccupationJson {
  /** Positions of paid orders (not canceled). */
  @ApiInt()
  paid!: number;
  /** Positions of pending orders (not canceled). */
  @ApiInt()
  pending!: number;
  /** Live cart positions (not expired); those holding a blocking voucher count with the voucher instead. */
  @ApiInt()
  in_carts!: number;
  /** Places held by valid, blocking, not used-up vouchers. */
  @ApiInt()
  blocking_vouchers!: number;
  /**
   * Places left: for a quota its availability (0 when closed or sold out), for a product the minimum over its
   * quotas (0 without quota); null when unlimited.
   */
  @ApiInt({ nullable: true })
  available!: number | null;
}

/** One quota's figures. */
export class StatsQuotaJson extends StatsOccupationJson {
  @ApiInt()
  id!: number;
  name!: string;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  /** Number of places; null means unlimited. */
  @ApiInt({ nullable: true })
  size!: number | null;
  /** Paid positions whose last successful scan was an exit (they free their place with `release_after_exit`). */
  @ApiInt()
  exited!: number;
}

/** One product's figures: an item without variation (`variation` null) or a variation. */
export class StatsProductJson extends StatsOccupationJson {
  @ApiInt()
  item!: number;
  @ApiInt({ nullable: true })
  variation!: number | null;
}

/** Orders of one status: how many, and the sum of their `total`. */
export class StatsOrderTotalJson {
  @ApiInt()
  count!: number;
  /** Sum of the orders' totals, in the event's currency. */
  @ApiMoney()
  total!: string;
}

/** Orders by status: `n` pending, `p` paid, `e` expired, `c` canceled. */
export class StatsOrdersJson {
  n!: StatsOrderTotalJson;
  p!: StatsOrderTotalJson;
  e!: StatsOrderTotalJson;
  c!: StatsOrderTotalJson;
}

/** One check-in list's figures. */
export class StatsCheckinListJson {
  @ApiInt()
  id!: number;
  /** Positions with at least one successful entry scan on the list. */
  @ApiInt()
  checked_in!: number;
  /** Positions whose last successful scan on the list is an entry. */
  @ApiInt()
  inside!: number;
}

/**
 * `GET E/stats/` (README "Live figures"): the event's live figures, all read from maintained counters (never a
 * scan of its positions). With `?subevent=`: the quotas and check-in lists of that date (lists for all dates
 * included), products counted on that date; `orders` always covers the whole event.
 */
export class EventStatsJson {
  /** The event's slug. */
  event!: string;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  /** The quotas, by id. */
  @ApiProperty({ type: [StatsQuotaJson] })
  quotas!: StatsQuotaJson[];
  /** The products the quotas count (or that have sales), by item and variation. */
  @ApiProperty({ type: [StatsProductJson] })
  items!: StatsProductJson[];
  orders!: StatsOrdersJson;
  /** The check-in lists, by id. */
  @ApiProperty({ type: [StatsCheckinListJson] })
  checkin_lists!: StatsCheckinListJson[];
}

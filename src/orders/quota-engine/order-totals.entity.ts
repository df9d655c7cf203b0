import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';

/** Stripes of an event's order totals: an order counts in stripe `id % ORDER_TOTAL_STRIPES`. */
export const ORDER_TOTAL_STRIPES = 16;

/**
 * Maintained totals of an event's orders by status (README "Live figures", `E/stats/`): the number of orders and
 * the sum of their `total` per status (`n`, `p`, `e`, `c`). Striped (`slot` = order id modulo
 * {@link ORDER_TOTAL_STRIPES}) so that concurrent checkouts of one event do not queue on one row; a reader sums
 * the stripes. Moved by deferred row triggers on `orders` (insert; update of `status` or `total`; delete) at the
 * COMMIT of the transaction that wrote (migration `LiveFigureCounters`): a stripe is locked only while that
 * transaction commits, after all its other locks. The quota count check (`QuotaCountCheck`) recomputes them from
 * the rows (`OrderTotalsQueries`).
 */
@Entity('order_totals')
export class OrderTotals {
  @PrimaryColumn({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @PrimaryColumn({ type: 'char', length: 1 })
  status!: string;

  @PrimaryColumn({ type: 'smallint' })
  slot!: number;

  @Column({ type: 'int', default: 0 })
  count!: number;

  /** Sum of the orders' `total`, as numeric text. */
  @Column({ type: 'numeric', precision: 15, scale: 2, default: 0 })
  total!: string;
}

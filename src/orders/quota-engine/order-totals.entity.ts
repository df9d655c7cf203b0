import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';

/** Stripes of an event's order totals: an order counts in stripe `id % ORDER_TOTAL_STRIPES`. */
export const ORDER_TOTAL_STRIPES = 16;

/**
 * Maintained totals of an event's orders by status (README "Live figures", `E/stats/`): the number of orders and
 * the sum of their `total` per status (`n`, `p`, `e`, `c`). Striped (`slot` = order id modulo
 * {@link ORDER_TOTAL_STRIPES}) so that concurrent checkouts of one event do not queue on one row; a reader sums
 * the stripes. Moved by a statement trigger on `orders` (insert, update, delete) in the same transaction as the
 * write (migration `LiveFigureCounters`); `OrderTotalsCheck` recomputes them from the rows.
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

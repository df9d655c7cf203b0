import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Event } from '../../organizers/event.entity';

/**
 * Maintained sales counts of one product: an item without variation, or a variation, on one sub-event or none
 * (architecture.md "Concurrency"; spec "Quota availability object"). Not canceled order positions
 * of paid orders count in `paid`, of pending orders in `pending`; `exited` counts the paid ones whose last
 * successful scan was an exit. The counts are moved by database triggers in the same transaction as every write
 * that moves them (positions inserted, changed or deleted, an order's status changed or the order deleted, a
 * check-in written), so no code path can forget them; see migration `ProductSalesCounts`. The quota engine sums
 * them over a quota's products instead of counting positions, and `QuotaCountCheck` recomputes them from the
 * rows. Unique per product through an expression index (`uq_product_sales_product`, nulls as 0) from that
 * migration.
 */
@Entity('product_sales')
@Index('uq_product_sales_product', { synchronize: false })
@Index('ix_product_sales_variation', ['variationId'])
export class ProductSales {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'int' })
  itemId!: number;

  @Column({ type: 'int', nullable: true })
  variationId!: number | null;

  @Column({ type: 'int', nullable: true })
  subeventId!: number | null;

  @Column({ type: 'int', default: 0 })
  paid!: number;

  @Column({ type: 'int', default: 0 })
  pending!: number;

  @Column({ type: 'int', default: 0 })
  exited!: number;
}

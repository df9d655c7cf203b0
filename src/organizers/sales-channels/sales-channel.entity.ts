import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Organizer } from '../organizer.entity';

/**
 * A sales channel of an organizer (pretix's `SalesChannel`, `O/saleschannels/`): where orders come from. Every
 * organizer has the built-in `web` and `api` channels; more of type `api` (identifiers `api.…`) are added
 * through the API. `identifier` is unique per organizer and never changes; items, variations, discounts and
 * events name channels by it (`limit_sales_channels`), orders and carts by `sales_channel`.
 */
@Entity('sales_channel')
@Index('uq_sales_channel_identifier', ['organizerId', 'identifier'], { unique: true })
export class SalesChannel {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  /** Letters, digits, `.`, `-`, `_`; at most 200 characters. */
  @Column({ type: 'varchar', length: 200 })
  identifier!: string;

  /** `web` (the online shop) or `api`; fixed once created. */
  @Column({ type: 'varchar', length: 200 })
  type!: string;

  @Column({ type: 'jsonb' })
  label!: I18nString;

  /** Sort key of the list (ascending, then `type`, `identifier`, `id`). */
  @Column({ type: 'int', default: 0 })
  position!: number;
}

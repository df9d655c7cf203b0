import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Event } from '../../organizers/event.entity';

/** A tax rule of one event (spec "Tax rule"; compat §3.19). `rate` is a percentage, `numeric(10,2)`. */
@Entity('tax_rule')
export class TaxRule {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'jsonb' })
  name!: I18nString;

  @Column({ type: 'varchar', length: 190, nullable: true })
  internalName!: string | null;

  @Column({ type: 'numeric', precision: 10, scale: 2 })
  rate!: string;

  /** Tax code (`S/standard`, `Z`, `E`, `AE`, ...) or null. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  code!: string | null;

  /** The event's default rule (exactly one when rules exist). */
  @Column({ type: 'boolean', default: false })
  isDefault!: boolean;

  @Column({ type: 'boolean', default: true })
  priceIncludesTax!: boolean;

  @Column({ type: 'boolean', default: false })
  euReverseCharge!: boolean;

  /** Merchant country (ISO 3166-1 alpha-2) or empty string. */
  @Column({ type: 'varchar', length: 2, default: '' })
  homeCountry!: string;

  @Column({ type: 'boolean', default: false })
  keepGrossIfRateChanges!: boolean;

  @Column({ type: 'jsonb', nullable: true })
  customRules!: Record<string, unknown>[] | null;
}

import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { I18nString } from '../common/values/i18n';
import { Organizer } from './organizer.entity';

/**
 * An event of an organizer (compat §4.2). Slugs are unique per organizer, case-insensitively (index created by
 * the migration, not synchronised).
 */
@Entity('event')
@Index('uq_event_organizer_slug_ci', { synchronize: false })
export class Event {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'jsonb' })
  name!: I18nString;

  @Column({ type: 'varchar', length: 50 })
  slug!: string;

  @Column({ type: 'boolean', default: false })
  live!: boolean;

  @Column({ type: 'boolean', default: false })
  testmode!: boolean;

  @Column({ type: 'varchar', length: 10 })
  currency!: string;

  @Column({ type: 'timestamptz' })
  dateFrom!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  dateTo!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  dateAdmission!: Date | null;

  @Column({ type: 'boolean', default: true })
  isPublic!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  presaleStart!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  presaleEnd!: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  location!: I18nString | null;

  @Column({ type: 'double precision', nullable: true })
  geoLat!: number | null;

  @Column({ type: 'double precision', nullable: true })
  geoLon!: number | null;

  @Column({ type: 'boolean', default: false })
  hasSubevents!: boolean;

  @Column({ type: 'varchar', length: 100, default: 'UTC' })
  timezone!: string;

  @Column({ type: 'jsonb', default: {} })
  metaData!: Record<string, string>;

  /** Seating plan id; the seating issue adds the foreign key. */
  @Column({ type: 'int', nullable: true })
  seatingPlanId!: number | null;

  @Column({ type: 'jsonb', default: {} })
  seatCategoryMapping!: Record<string, number | null>;

  /** Sold through every sales channel of the organizer (pretix `all_sales_channels`, default true). */
  @Column({ type: 'boolean', default: true })
  allSalesChannels!: boolean;

  /** Channel identifiers when not {@link allSalesChannels} (sorted, distinct; empty when it is). */
  @Column({ type: 'text', array: true, default: '{}' })
  limitSalesChannels!: string[];

  /**
   * Bumped by database triggers on every write to the event's catalogue tables (migration CatalogueVersion);
   * never written by the application (`insert`/`update` off, so a stale entity cannot set it back). A decimal
   * string (bigint). Keys the rendered catalogue list cache.
   */
  @Column({ type: 'bigint', default: '0', insert: false, update: false })
  catalogueVersion!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  lastModified!: Date;
}

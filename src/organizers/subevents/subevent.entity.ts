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
import type { I18nString } from '../../common/values/i18n';
import { Event } from '../event.entity';

/**
 * A date of an event series (spec "Sub-event"; compat §3.17). Only events with `has_subevents` have them; quotas,
 * vouchers, cart and order positions and seats of a series point at one. Its item and variation price
 * overrides belong to the catalogue (`catalogue/subevent-prices/`).
 */
@Entity('subevent')
@Index('ix_subevent_event_date_from', ['eventId', 'dateFrom'])
export class SubEvent {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'jsonb' })
  name!: I18nString;

  @Column({ type: 'boolean', default: false })
  active!: boolean;

  @Column({ type: 'boolean', default: true })
  isPublic!: boolean;

  @Column({ type: 'timestamptz' })
  dateFrom!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  dateTo!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  dateAdmission!: Date | null;

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

  @Column({ type: 'jsonb', nullable: true })
  frontpageText!: I18nString | null;

  /** Internal comment. */
  @Column({ type: 'text', nullable: true })
  comment!: string | null;

  /** Values of the organizer's event meta-data properties, by property name. */
  @Column({ type: 'jsonb', default: {} })
  metaData!: Record<string, string>;

  /** Seating plan id (a plan of the organizer), stored as given; seats of dates are not generated yet. */
  @Column({ type: 'int', nullable: true })
  seatingPlanId!: number | null;

  @Column({ type: 'jsonb', default: {} })
  seatCategoryMapping!: Record<string, number | null>;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  lastModified!: Date;
}

import {
  Column,
  Entity,
  Index,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Event } from '../organizers/event.entity';
import { Organizer } from '../organizers/organizer.entity';
import { Gate } from './gate.entity';

/** pretix's security profiles of a device (`pretix.api.auth.devicesecurity`). */
export const SECURITY_PROFILES = [
  'full',
  'pretixscan',
  'pretixscan_online_kiosk',
  'pretixscan_online_noorders',
] as const;

/**
 * A device of an organizer (pretix `Device`): a scanner or box office that was set up with a one-time
 * `initialization_token` and then acts with its own API token (`Authorization: Device <token>`). `device_id`
 * numbers the devices of one organizer 1, 2, …; the API token is stored only as the SHA-256 hex of its secret
 * (like team tokens). Devices are never deleted, only revoked.
 */
@Entity('device')
@Index('uq_device_organizer_device_id', ['organizerId', 'deviceId'], { unique: true })
export class Device {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  organizerId!: number;

  @ManyToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'int' })
  deviceId!: number;

  @Column({ type: 'varchar', length: 190, unique: true })
  uniqueSerial!: string;

  @Column({ type: 'varchar', length: 190, unique: true })
  initializationToken!: string;

  /** SHA-256 hex of the API token; null before initialization. */
  @Column({ type: 'varchar', length: 64, unique: true, nullable: true })
  apiTokenHash!: string | null;

  @Column({ type: 'boolean', default: false })
  allEvents!: boolean;

  @ManyToMany(() => Event, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'device_limit_event',
    joinColumn: { name: 'device_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'event_id', referencedColumnName: 'id' },
  })
  limitEvents?: Event[];

  @Column({ type: 'boolean', default: false })
  revoked!: boolean;

  @Column({ type: 'varchar', length: 190 })
  name!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  created!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  initialized!: Date | null;

  @Column({ type: 'varchar', length: 190, nullable: true })
  hardwareBrand!: string | null;

  @Column({ type: 'varchar', length: 190, nullable: true })
  hardwareModel!: string | null;

  @Column({ type: 'varchar', length: 190, nullable: true })
  osName!: string | null;

  @Column({ type: 'varchar', length: 190, nullable: true })
  osVersion!: string | null;

  @Column({ type: 'varchar', length: 190, nullable: true })
  softwareBrand!: string | null;

  @Column({ type: 'varchar', length: 190, nullable: true })
  softwareVersion!: string | null;

  @Column({ type: 'varchar', length: 190, default: 'full' })
  securityProfile!: string;

  @Column({ type: 'text', nullable: true })
  rsaPubkey!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  info!: unknown;

  @Index()
  @Column({ type: 'int', nullable: true })
  gateId!: number | null;

  @ManyToOne(() => Gate, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'gate_id' })
  gate?: Gate | null;
}

import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { Event } from '../organizers/event.entity';

/**
 * The waiting list settings of an event (pretix event settings `waiting_list_enabled`, `waiting_list_auto`,
 * `waiting_list_hours`, `waiting_list_limit_per_user`; served through `E/settings/`). An event without a row has
 * pretix's defaults ({@link WAITING_LIST_DEFAULTS} in `waiting-list.rules.ts`).
 */
@Entity('waiting_list_settings')
export class WaitingListSettings {
  @PrimaryColumn({ type: 'int' })
  eventId!: number;

  @OneToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'boolean', default: false })
  enabled!: boolean;

  @Column({ type: 'boolean', default: true })
  auto!: boolean;

  @Column({ type: 'int', default: 48 })
  hours!: number;

  @Column({ type: 'int', default: 1 })
  limitPerUser!: number;
}

import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { Organizer } from '../organizer.entity';

/**
 * The organizer settings the organizer has set explicitly (`O/settings/`): key -> wire value. Keys not in it
 * take pretix's defaults (`organizer-settings.schema.ts`). One row per organizer, created on the first PATCH.
 */
@Entity('organizer_settings')
export class OrganizerSettingsRow {
  @PrimaryColumn({ type: 'int' })
  organizerId!: number;

  @OneToOne(() => Organizer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organizer_id' })
  organizer?: Organizer;

  @Column({ type: 'jsonb', default: {} })
  values!: Record<string, unknown>;
}

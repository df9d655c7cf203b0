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
import type { I18nString } from '../../common/values/i18n';
import { Event } from '../../organizers/event.entity';
import { Item } from '../items/item.entity';

/**
 * A question asked per order position (spec "Question"; compat §3.15). Identifiers are unique per event
 * (index from the migration). `valid_number_*` are `numeric(16,6)`, returned as strings.
 */
@Entity('question')
@Index('uq_question_event_identifier', ['eventId', 'identifier'], { unique: true })
export class Question {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  eventId!: number;

  @ManyToOne(() => Event, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id' })
  event?: Event;

  @Column({ type: 'jsonb' })
  question!: I18nString;

  @Column({ type: 'jsonb', default: {} })
  helpText!: I18nString;

  /** `N`, `S`, `T`, `B`, `C`, `M`, `F`, `D`, `H`, `W`, `CC`, `TEL`. */
  @Column({ type: 'varchar', length: 5 })
  type!: string;

  @Column({ type: 'boolean', default: false })
  required!: boolean;

  @Column({ type: 'int', default: 0 })
  position!: number;

  @Column({ type: 'varchar', length: 190 })
  identifier!: string;

  @Column({ type: 'boolean', default: false })
  askDuringCheckin!: boolean;

  @Column({ type: 'boolean', default: false })
  showDuringCheckin!: boolean;

  @Column({ type: 'boolean', default: false })
  hidden!: boolean;

  @Column({ type: 'boolean', default: false })
  printOnInvoice!: boolean;

  @Column({ type: 'numeric', precision: 16, scale: 6, nullable: true })
  validNumberMin!: string | null;

  @Column({ type: 'numeric', precision: 16, scale: 6, nullable: true })
  validNumberMax!: string | null;

  @Column({ type: 'date', nullable: true })
  validDateMin!: string | null;

  @Column({ type: 'date', nullable: true })
  validDateMax!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  validDatetimeMin!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  validDatetimeMax!: Date | null;

  @Column({ type: 'boolean', default: false })
  validFilePortrait!: boolean;

  @Column({ type: 'int', nullable: true })
  validStringLengthMin!: number | null;

  @Column({ type: 'int', nullable: true })
  validStringLengthMax!: number | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  dependencyQuestionId!: number | null;

  @ManyToOne(() => Question, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'dependency_question_id' })
  dependencyQuestion?: Question | null;

  @Column({ type: 'text', array: true, default: '{}' })
  dependencyValues!: string[];

  @ManyToMany(() => Item, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'question_item',
    joinColumn: { name: 'question_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'item_id', referencedColumnName: 'id' },
  })
  items?: Item[];
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { I18nString } from '../../common/values/i18n';
import { Question } from './question.entity';

/**
 * An answer option of a choice question (spec "Question option"; compat §3.16). Identifiers are unique among the
 * options of the whole event, hence the denormalised `event_id`.
 */
@Entity('question_option')
@Index('uq_question_option_event_identifier', ['eventId', 'identifier'], { unique: true })
export class QuestionOption {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int' })
  questionId!: number;

  @ManyToOne(() => Question, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'question_id' })
  question?: Question;

  @Column({ type: 'int' })
  eventId!: number;

  @Column({ type: 'varchar', length: 190 })
  identifier!: string;

  @Column({ type: 'jsonb' })
  answer!: I18nString;

  @Column({ type: 'int', default: 0 })
  position!: number;
}

import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  JoinTable,
  ManyToMany,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { QuestionOption } from '../../catalogue/questions/question-option.entity';
import { Question } from '../../catalogue/questions/question.entity';
import { CartPosition } from '../carts/cart-position.entity';
import { OrderPosition } from './order-position.entity';

/**
 * An answer to a question, for an order position or a cart position (exactly one of them). `answer` is the
 * normalised text form (`True`/`False` for booleans, ISO dates, comma-joined option answers for choices).
 */
@Entity('question_answer')
@Check('ck_question_answer_one_position', '(order_position_id IS NULL) <> (cart_position_id IS NULL)')
export class QuestionAnswer {
  @PrimaryGeneratedColumn()
  id!: number;

  @Index()
  @Column({ type: 'int', nullable: true })
  orderPositionId!: number | null;

  @ManyToOne(() => OrderPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_position_id' })
  orderPosition?: OrderPosition | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  cartPositionId!: number | null;

  @ManyToOne(() => CartPosition, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cart_position_id' })
  cartPosition?: CartPosition | null;

  @Index()
  @Column({ type: 'int' })
  questionId!: number;

  @ManyToOne(() => Question, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'question_id' })
  question?: Question;

  @Column({ type: 'text' })
  answer!: string;

  @ManyToMany(() => QuestionOption, { onDelete: 'CASCADE' })
  @JoinTable({
    name: 'question_answer_option',
    joinColumn: { name: 'answer_id', referencedColumnName: 'id' },
    inverseJoinColumn: { name: 'option_id', referencedColumnName: 'id' },
  })
  options?: QuestionOption[];
}

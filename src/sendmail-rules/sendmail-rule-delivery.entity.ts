import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { SendmailRule } from './sendmail-rule.entity';

/**
 * One mail a rule sent (compat §3.26): the unique (rule, recipient) row is claimed in the transaction that puts the
 * mail into the outbox, so a rule mails each order (or attendee) once, whatever the number of workers.
 */
@Entity('sendmail_rule_delivery')
@Unique('uq_sendmail_rule_delivery_target', ['ruleId', 'target'])
export class SendmailRuleDelivery {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'int' })
  ruleId!: number;

  @ManyToOne(() => SendmailRule, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'rule_id' })
  rule?: SendmailRule;

  /** `order:<id>` or `position:<id>`. */
  @Column({ type: 'varchar', length: 40 })
  target!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}

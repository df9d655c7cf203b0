import { Module } from '@nestjs/common';
import { SendmailRuleQueries } from './sendmail-rule.queries';
import { MailModule } from '../mail/mail.module';
import { SendmailRuleRunner } from './sendmail-rule-runner';

/** The worker's side of scheduled e-mail rules: the runner the scheduler tick calls (compat §3.26). */
@Module({
  imports: [MailModule],
  providers: [SendmailRuleQueries, SendmailRuleRunner],
  exports: [SendmailRuleRunner],
})
export class SendmailRulesRunnerModule {}

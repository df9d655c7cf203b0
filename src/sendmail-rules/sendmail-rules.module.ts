import { Module } from '@nestjs/common';
import { SendmailRuleQueries } from './sendmail-rule.queries';
import { AuditModule } from '../audit/audit.module';
import { SendmailRulesController } from './sendmail-rules.controller';
import { SendmailRulesService } from './sendmail-rules.service';

/** Scheduled e-mail rules (`E/sendmail_rules/`, compat §3.26): CRUD in the API process. */
@Module({
  imports: [AuditModule],
  controllers: [SendmailRulesController],
  providers: [SendmailRuleQueries, SendmailRulesService],
})
export class SendmailRulesModule {}

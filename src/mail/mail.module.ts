import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { MailOutboxService } from './mail-outbox.service';
import { MailOutcomeHooks } from './mail-outcome-hooks';
import { MailSweep } from './mail-sweep.service';
import { OutgoingMailQueries } from './outgoing-mail.queries';

/**
 * Outgoing mail (architecture.md "Layout"): the outbox writer every context sends through, and the sweep the
 * scheduler runs. Imported where needed (not global); the SMTP delivery processor is registered by the worker.
 */
@Module({
  imports: [TasksModule],
  providers: [OutgoingMailQueries, MailOutboxService, MailSweep, MailOutcomeHooks],
  exports: [OutgoingMailQueries, MailOutboxService, MailSweep, MailOutcomeHooks],
})
export class MailModule {}

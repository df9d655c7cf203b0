import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { MailModule } from '../../mail/mail.module';
import { ResendLinkController } from './resend-link.controller';
import { ResendLinkService } from './resend-link.service';

/** `resend_link` (compat §4.4 "Actions"): the order's link mailed through the outbox. */
@Module({
  imports: [AuditModule, MailModule],
  controllers: [ResendLinkController],
  providers: [ResendLinkService],
})
export class ResendLinkModule {}

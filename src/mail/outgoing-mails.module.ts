import { Module } from '@nestjs/common';
import { OutgoingMailsController } from './outgoing-mails.controller';
import { OutgoingMailsService } from './outgoing-mails.service';
import { OutgoingMailQueries } from './outgoing-mail.queries';

/** `O/outgoingmails/` (API only). */
@Module({
  controllers: [OutgoingMailsController],
  providers: [OutgoingMailQueries, OutgoingMailsService],
})
export class OutgoingMailsModule {}

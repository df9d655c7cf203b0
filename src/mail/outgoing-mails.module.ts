import { Module } from '@nestjs/common';
import { OutgoingMailsController } from './outgoing-mails.controller';
import { OutgoingMailsService } from './outgoing-mails.service';

/** `O/outgoingmails/` (API only). */
@Module({
  controllers: [OutgoingMailsController],
  providers: [OutgoingMailsService],
})
export class OutgoingMailsModule {}

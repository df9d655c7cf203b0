import { Module } from '@nestjs/common';
import { OrganizersModule } from '../organizers/organizers.module';
import { OutgoingMailsController } from './outgoing-mails.controller';
import { OutgoingMailsService } from './outgoing-mails.service';

/** `O/outgoingmails/` (API only). */
@Module({
  imports: [OrganizersModule],
  controllers: [OutgoingMailsController],
  providers: [OutgoingMailsService],
})
export class OutgoingMailsModule {}

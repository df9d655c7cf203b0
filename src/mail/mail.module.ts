import { Global, Module } from '@nestjs/common';
import { MailOutboxService } from './mail-outbox.service';

@Global()
@Module({ providers: [MailOutboxService], exports: [MailOutboxService] })
export class MailModule {}

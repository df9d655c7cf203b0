import { BullModule } from '@nestjs/bull';
import { Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { MailModule } from './mail/mail.module';
import { BullRootModule, QUEUES } from './queues';
import { SchedulerProcessor } from './scheduler/scheduler.processor';
import { SchedulerService } from './scheduler/scheduler.service';

/** The worker process: Bull processors and the periodic scheduler; no HTTP. */
@Module({
  imports: [
    ConfigModule.forRoot(),
    DatabaseModule,
    BullRootModule,
    BullModule.registerQueue(...Object.values(QUEUES).map((name) => ({ name }))),
    AuditModule,
    MailModule,
  ],
  providers: [SchedulerProcessor, SchedulerService],
})
export class WorkerModule {}

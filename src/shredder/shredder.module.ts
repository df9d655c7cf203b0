import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { ShreddersController } from './shredders.controller';
import { ShreddersService } from './shredders.service';

/** Shredders in the API process (`E/shredders/`, compat §3.8); the tasks run in the worker ({@link ShredderTasksModule}). */
@Module({
  imports: [TasksModule],
  controllers: [ShreddersController],
  providers: [ShreddersService],
})
export class ShredderModule {}

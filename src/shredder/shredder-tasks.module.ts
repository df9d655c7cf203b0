import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { ShredderExportTask, ShredderRunTask } from './shredder.tasks';

/** The worker's shredder task executors (`shredder.export`, `shredder.shred` on the `shredder` queue). */
@Module({
  imports: [TasksModule],
  providers: [ShredderExportTask, ShredderRunTask],
})
export class ShredderTasksModule {}

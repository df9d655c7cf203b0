import { Module } from '@nestjs/common';
import { JobQueues } from './job-queues.service';
import { StoredFiles } from './stored-files.service';
import { TasksService } from './tasks.service';

/**
 * Async tasks, stored files and the queues (architecture.md "Async tasks"). The API and the worker import it to
 * enqueue and to read tasks; the processors (`TaskRunner`, `QueueWorkers`) are registered only by the worker
 * module. Nothing outside `tasks/` imports the queue library.
 */
@Module({
  providers: [JobQueues, StoredFiles, TasksService],
  exports: [JobQueues, StoredFiles, TasksService],
})
export class TasksModule {}

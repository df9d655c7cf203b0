import { Module } from '@nestjs/common';
import { AsyncTaskQueries } from './async-task.queries';
import { JobQueues } from './job-queues.service';
import { StoredFileQueries } from './stored-file.queries';
import { StoredFiles } from './stored-files.service';
import { TasksService } from './tasks.service';
import { UploadedFileQueries } from './uploads/uploaded-file.queries';
import { UploadedFiles } from './uploads/uploaded-files.service';

/**
 * Async tasks, stored files and the queues (architecture.md "Async tasks"). The API and the worker import it to
 * enqueue and to read tasks; the processors (`TaskRunner`, `QueueWorkers`) are registered only by the worker
 * module. Nothing outside `tasks/` imports the queue library.
 */
@Module({
  providers: [
    JobQueues,
    StoredFiles,
    TasksService,
    AsyncTaskQueries,
    StoredFileQueries,
    UploadedFiles,
    UploadedFileQueries,
  ],
  exports: [JobQueues, StoredFiles, TasksService, AsyncTaskQueries, StoredFileQueries, UploadedFiles],
})
export class TasksModule {}

import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { TicketFileQueries } from './ticket-file.queries';
import { TicketRenderTask } from './ticket-render.task';

/** The worker's ticket renderer (task kind `tickets.render` on the `tickets` queue). */
@Module({
  imports: [TasksModule],
  providers: [TicketFileQueries, TicketRenderTask],
})
export class TicketTasksModule {}

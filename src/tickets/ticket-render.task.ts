import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AsyncTask } from '../tasks/async-task.entity';
import { StoredFiles } from '../tasks/stored-files.service';
import { ExecutesTask, TaskExecutor, TaskOutcome } from '../tasks/task-executor';
import type { TicketPage } from './ticket-content.rules';
import { TicketFileQueries, TicketTarget } from './ticket-file.queries';
import { renderTicketPdf } from './ticket-pdf';

/** Task kind of a ticket render (`TASK_KINDS`), queue `tickets`. */
export const TICKET_RENDER = 'tickets.render';

/** How long a rendered ticket file is kept (it is rendered again after that, on the next download). */
export const TICKET_FILE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The input of a render task: the target, the content key and the pages to draw. */
export interface TicketRenderInput extends TicketTarget {
  organizerId: number;
  key: string;
  filename: string;
  pages: TicketPage[];
}

/**
 * `tickets.render` (worker only): draws the pages the API computed ({@link renderTicketPdf}) and stores the PDF
 * (`stored_file`, kind `ticket_pdf`, {@link TICKET_FILE_TTL_MS}) together with the `ticket_file` row's file id, in
 * one transaction, only while the row still waits for this task (a newer render meanwhile makes it stale: nothing
 * is kept). Errors fail the attempt (the task runner records them); the next download then starts a new render.
 */
@Injectable()
@ExecutesTask(TICKET_RENDER)
export class TicketRenderTask implements TaskExecutor {
  private readonly logger = new Logger('Tickets');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: StoredFiles,
    private readonly queries: TicketFileQueries,
  ) {}

  async run(task: AsyncTask, _ctx: unknown): Promise<TaskOutcome> {
    const input = task.input as unknown as TicketRenderInput;
    const pdf = await renderTicketPdf(input.pages, input.filename);
    const fileId = await this.db.transaction(async (em) => {
      const id = await this.files.store(
        {
          kind: 'ticket_pdf',
          filename: input.filename,
          contentType: 'application/pdf',
          content: pdf,
          organizerId: input.organizerId,
          expires: new Date(Date.now() + TICKET_FILE_TTL_MS),
        },
        em,
      );
      if (!(await this.queries.attach(em, input, task.id, id))) {
        await this.files.delete([id], em);
        return null;
      }
      return id;
    });
    this.logger.log(`ticket ${input.filename}: ${fileId ? 'stored' : 'discarded (stale)'}`);
    return { message: fileId ? null : 'stale', resultFileId: fileId };
  }
}

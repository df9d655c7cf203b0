import { Module } from '@nestjs/common';
import { TasksModule } from '../../tasks/tasks.module';
import { AnswerFilesController } from './answer-files.controller';
import { AnswerFiles } from './answer-files.service';
import { AnswerQueries } from './answer.queries';

/**
 * The downloads of file answers (`E/orderpositions/{id}/answer/{question}/`; also the images of `pdf_image/`); the
 * bytes from the tasks' file store.
 */
@Module({
  imports: [TasksModule],
  controllers: [AnswerFilesController],
  providers: [AnswerFiles, AnswerQueries],
  exports: [AnswerFiles],
})
export class AnswerFilesModule {}

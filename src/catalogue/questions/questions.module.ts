import { Module } from '@nestjs/common';
import { QuestionOptionsController } from './question-options.controller';
import { QuestionOptionQueries } from './question-option.queries';
import { QuestionOptionsService } from './question-options.service';
import { QuestionQueries } from './question.queries';
import { QuestionsController } from './questions.controller';
import { QuestionsService } from './questions.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: questions (`E/questions/`) and their options (`E/questions/{question}/options/`). */
@Module({
  imports: [AuditModule],
  controllers: [QuestionsController, QuestionOptionsController],
  providers: [QuestionsService, QuestionOptionsService, QuestionQueries, QuestionOptionQueries],
  exports: [QuestionsService],
})
export class QuestionsModule {}

import { Module } from '@nestjs/common';
import { QuestionOptionsController } from './question-options.controller';
import { QuestionOptionsService } from './question-options.service';
import { QuestionsController } from './questions.controller';
import { QuestionsService } from './questions.service';
import { AuditModule } from '../../audit/audit.module';

/** Catalogue: questions (`E/questions/`) and their options (`E/questions/{question}/options/`). */
@Module({
  imports: [AuditModule],
  controllers: [QuestionsController, QuestionOptionsController],
  providers: [QuestionsService, QuestionOptionsService],
  exports: [QuestionsService],
})
export class QuestionsModule {}

import { Module } from '@nestjs/common';

/** Catalogue: questions and their options. */
@Module({})
export class QuestionsModule {}

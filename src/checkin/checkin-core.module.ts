import { Module } from '@nestjs/common';
import { ExitAll } from './exit-all';

/** The check-in context without HTTP: what the worker's scheduler runs (the automatic check-out). */
@Module({ providers: [ExitAll], exports: [ExitAll] })
export class CheckinCoreModule {}

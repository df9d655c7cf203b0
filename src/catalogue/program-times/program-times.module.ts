import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { ProgramTimeQueries } from './program-time.queries';
import { ProgramTimesController } from './program-times.controller';
import { ProgramTimesService } from './program-times.service';

/** Catalogue: item program times (`E/items/{item}/program_times/`); exports the service for inline ones on items. */
@Module({
  imports: [AuditModule],
  controllers: [ProgramTimesController],
  providers: [ProgramTimesService, ProgramTimeQueries],
  exports: [ProgramTimesService],
})
export class ProgramTimesModule {}

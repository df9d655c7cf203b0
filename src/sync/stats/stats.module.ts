import { Module } from '@nestjs/common';
import { CatalogueReadsModule } from '../../catalogue/sales/catalogue-reads.module';
import { QuotaEngineModule } from '../../orders/quota-engine/quota-engine.module';
import { SseModule } from '../sse/sse.module';
import { StatsStreamService } from './stats-stream.service';
import { StatsController } from './stats.controller';
import { StatsQueries } from './stats.queries';
import { StatsService } from './stats.service';

/**
 * The live figures (README "Live figures"): `E/stats/` ({@link StatsService}, from maintained counters) and its
 * stream `E/stats/stream/` ({@link StatsStreamService}, on the process's shared SSE hub).
 */
@Module({
  imports: [CatalogueReadsModule, QuotaEngineModule, SseModule],
  controllers: [StatsController],
  providers: [StatsService, StatsQueries, StatsStreamService],
  exports: [StatsService],
})
export class StatsModule {}

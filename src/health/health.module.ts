import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { TasksModule } from '../tasks/tasks.module';
import { HealthController } from './health.controller';

/** Liveness and readiness probes (`/api/v1/healthz`, `/api/v1/readyz`) with `@nestjs/terminus`. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false }), TasksModule],
  controllers: [HealthController],
})
export class HealthModule {}

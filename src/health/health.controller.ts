import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import { NoTrailingSlash, Public } from '../common/http/access-rule';
import { JobQueues } from '../tasks/job-queues.service';

/** Longest wait of the readiness probe for each dependency (milliseconds). */
const PROBE_TIMEOUT_MS = 1500;

const DEPENDENCIES = { type: 'object', additionalProperties: { type: 'object' } };
/** terminus' body: overall status and the state of each dependency. */
const PROBE_SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'error'] },
    info: DEPENDENCIES,
    error: DEPENDENCIES,
    details: DEPENDENCIES,
  },
};

/**
 * Health probes for orchestrators (README "Configuration"), public and outside the pretix API:
 * - `GET /api/v1/healthz`: liveness, 200 `{"status": "ok"}` while the process serves HTTP (no dependency checked,
 *   so a database outage does not get the API restarted);
 * - `GET /api/v1/readyz`: readiness, 200 when PostgreSQL and Redis answer within 1.5 s, else 503 with
 *   `Retry-After: 5` and terminus' body naming the dependency that is down.
 */
@ApiTags('meta')
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly queues: JobQueues,
  ) {}

  @Get('healthz')
  @Public()
  @NoTrailingSlash()
  @HttpCode(200)
  @ApiOkResponse({
    description: 'The process is alive.',
    schema: { type: 'object', properties: { status: { type: 'string', enum: ['ok'] } } },
  })
  @ApiOperation({ summary: 'Liveness probe' })
  checkLiveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @Public()
  @NoTrailingSlash()
  @ApiOkResponse({ description: 'PostgreSQL and Redis answer.', schema: PROBE_SCHEMA })
  @ApiServiceUnavailableResponse({
    description: 'A dependency is down (named in `error`).',
    schema: PROBE_SCHEMA,
  })
  @ApiOperation({ summary: 'Readiness probe (PostgreSQL and Redis)' })
  async checkReadiness(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: PROBE_TIMEOUT_MS }),
        () => this.redisCheck(),
      ]);
    } catch (err) {
      // terminus reports a failed check by throwing its 503 exception; its body names the dependency.
      const failed = err as { getStatus?: () => number; getResponse?: () => unknown };
      if (failed.getStatus?.() !== 503 || !failed.getResponse) throw err;
      res.status(503).setHeader('Retry-After', '5');
      return failed.getResponse();
    }
  }

  private async redisCheck() {
    const indicator = this.indicators.check('redis');
    try {
      await this.queues.ping();
      return indicator.up();
    } catch (err) {
      return indicator.down({ message: (err as Error).message });
    }
  }
}

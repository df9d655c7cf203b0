import {
  Controller,
  Get,
  Headers,
  HttpCode,
  INestApplication,
  Module,
  Param,
  Post,
  Query,
  Body,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { Principal } from '../src/auth/principal';
import { ApiExceptionFilter } from '../src/common/http/exception.filter';
import type { AppConfig } from '../src/config/app-config';
import { ConfigModule } from '../src/config/config.module';
import { DatabaseModule } from '../src/database/database.module';
import { QUEUES } from '../src/tasks/queues';
import { StoredFiles } from '../src/tasks/stored-files.service';
import { TasksModule } from '../src/tasks/tasks.module';
import { TasksService } from '../src/tasks/tasks.service';

/** The credential of a request: header `X-Token-Id` (a team token id). */
function principal(tokenId: string | undefined): Principal {
  return new Principal({ kind: 'team_token', tokenId: Number(tokenId ?? 1) }, []);
}

/**
 * Stand-ins for the spec's task endpoints (shredder export/download/status, invoice download), which later
 * issues add: start a `diagnostic.sleep` task (202 with its id), and poll it through the one poll helper.
 */
@Controller('tasks')
class TaskEndpoints {
  constructor(
    private readonly tasks: TasksService,
    private readonly files: StoredFiles,
  ) {}

  @Post()
  @HttpCode(202)
  async start(@Headers('x-token-id') token: string | undefined, @Body() input: Record<string, unknown>) {
    const task = await this.tasks.start(principal(token), {
      kind: 'diagnostic.sleep',
      queue: QUEUES.exports,
      input,
    });
    return { id: task.id };
  }

  @Get(':id')
  async poll(
    @Headers('x-token-id') token: string | undefined,
    @Param('id') id: string,
    @Query('missing') missing: string | undefined,
    @Query('failed') failed: string | undefined,
  ) {
    const task = await this.tasks.poll(id, principal(token), {
      missing: missing === '410' ? 'gone' : 'not-found',
      failed: failed === '417' ? 'shred' : 'task',
    });
    const [file] = await this.files.findLive(task.resultFileId ? [task.resultFileId] : []);
    return { status: 'ok', message: task.message, file: file ? file.content.toString('utf8') : null };
  }
}

/** A small HTTP app with the real exception filter, the tasks module and the stand-in endpoints. */
export async function startTaskEndpoints(
  overrides: Partial<AppConfig>,
): Promise<{ app: INestApplication; http: () => TestAgent }> {
  @Module({
    imports: [ConfigModule.forRoot({ logLevel: 'error', ...overrides }), DatabaseModule, TasksModule],
    controllers: [TaskEndpoints],
    providers: [{ provide: APP_FILTER, useClass: ApiExceptionFilter }],
  })
  class TaskEndpointsModule {}
  const app = await NestFactory.create(TaskEndpointsModule, { logger: ['error'] });
  await app.init();
  const server = app.getHttpServer() as Parameters<typeof request>[0];
  return { app, http: () => request(server) };
}

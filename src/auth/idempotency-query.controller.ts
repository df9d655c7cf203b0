import { Controller, Get, Headers, Query } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { IdempotencyQuery } from '../common/http/idempotency-query';
import { NoTrailingSlash, RequireAuthentication } from './access.decorators';

/**
 * `GET /api/v1/idempotency_query?key=<key>` (pretix `IdempotencyQueryView`, compat §1.8): the answer a write with
 * that `X-Idempotency-Key` got, for the same credential. Unlike pretix, the credential must be valid (401 else).
 */
@ApiTags('profile')
@Controller('idempotency_query')
export class IdempotencyQueryController {
  constructor(private readonly query: IdempotencyQuery) {}

  @Get()
  @NoTrailingSlash()
  @RequireAuthentication()
  @ApiQuery({
    name: 'key',
    required: false,
    type: String,
    description: 'The idempotency key (pretix); else the header.',
  })
  @ApiHeader({
    name: 'X-Idempotency-Key',
    required: false,
    description: 'The idempotency key, without `?key=`.',
  })
  @ApiOkResponse({
    description:
      'The stored answer of the write, replayed with its status (any: 201, 400, …), headers and body. 404 ' +
      '`No idempotency key given.` or `Idempotency key not seen before.`; 409 while the write runs.',
    schema: {
      type: 'object',
      description: 'The body the write answered (its own shape), replayed as it was sent.',
      properties: {},
      additionalProperties: true,
    },
  })
  @ApiOperation({ summary: 'The stored answer of an idempotent write' })
  retrieveIdempotentAnswer(
    @Query('key') key: string | undefined,
    @Headers('x-idempotency-key') header: string | undefined,
    @Headers('authorization') authorization: string | undefined,
  ): Promise<never> {
    return this.query.answer(authorization, key || header);
  }
}

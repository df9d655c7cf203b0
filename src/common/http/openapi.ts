import { applyDecorators, Controller, Get, INestApplication, Injectable, Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiTags,
  DocumentBuilder,
  getSchemaPath,
  OpenAPIObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { NoTrailingSlash, Public } from '../../auth/access.decorators';

/** Documents a list endpoint's envelope `{count, next, previous, results: [model]}` (spec "Conventions" 4). */
export function ApiPaginatedResponse(model: Type<unknown>) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      schema: {
        type: 'object',
        required: ['count', 'next', 'previous', 'results'],
        properties: {
          count: { type: 'integer' },
          next: { type: 'string', format: 'uri', nullable: true },
          previous: { type: 'string', format: 'uri', nullable: true },
          results: { type: 'array', items: { $ref: getSchemaPath(model) } },
        },
      },
    }),
  );
}

/** Holds the generated OpenAPI document for serving. */
@Injectable()
export class OpenApiDocumentHolder {
  document: OpenAPIObject | null = null;
}

/** Builds the OpenAPI 3 document from the code (controllers, DTOs, presenters via the swagger CLI plugin). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Event ticketing management API')
    .setDescription(
      'pretix-compatible management API. Authenticate with `Authorization: Token <team token>` or ' +
        '`Authorization: Bearer <access token>`. Lists are paginated (`page`, `page_size` up to 50).',
    )
    .setVersion('1')
    .addSecurity('token', {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'Token <token>',
    })
    .addBearerAuth()
    .addSecurityRequirements('token')
    .addSecurityRequirements('bearer')
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
}

/** `GET /api/v1/openapi.json` (no authentication). */
@ApiTags('meta')
@Controller('openapi.json')
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocumentHolder) {}

  @Get()
  @Public()
  @NoTrailingSlash()
  document(): OpenAPIObject | Record<string, never> {
    return this.holder.document ?? {};
  }
}

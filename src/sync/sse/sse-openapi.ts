import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces } from '@nestjs/swagger';

/** What the OpenAPI document says about one server-sent event route. */
export interface EventStreamDoc {
  /** The 200 answer: what the stream carries, its limits. */
  description: string;
  /** A stream excerpt (lines of `text/event-stream`). */
  example: string;
  /** What `Last-Event-ID` does on this stream. */
  lastEventId: string;
  /** The pattern of a valid `Last-Event-ID` (the stream's ids). */
  idPattern: string;
}

/**
 * The OpenAPI decorators every server-sent event route of the sync context shares (the live check-in stream and the
 * live figures' stream, README "Live check-in stream" and "Live figures"): `text/event-stream` answer with its
 * example, and the `Last-Event-ID` header of a resumption. The route keeps its own `@ApiOperation` (the Swagger
 * plugin reads it only on the method itself).
 */
export const ApiEventStream = (doc: EventStreamDoc) =>
  applyDecorators(
    ApiProduces('text/event-stream'),
    ApiOkResponse({
      description: doc.description,
      content: { 'text/event-stream': { schema: { type: 'string' }, example: doc.example } },
    }),
    ApiHeader({
      name: 'Last-Event-ID',
      required: false,
      description: doc.lastEventId,
      schema: { type: 'string', pattern: doc.idPattern },
    }),
  );

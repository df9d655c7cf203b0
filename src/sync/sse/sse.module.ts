import { Module } from '@nestjs/common';
import { SseHub } from './sse-hub';

/** The process's one {@link SseHub}, shared by every kind of server-sent event stream. */
@Module({ providers: [SseHub], exports: [SseHub] })
export class SseModule {}

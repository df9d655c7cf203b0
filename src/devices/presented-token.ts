import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The secret of the request's `Authorization: Device <token>` header ('' for another scheme). The device
 * endpoints answer the token the device presented (pretix shows `api_token`; only its hash is stored).
 */
export const PresentedDeviceToken = createParamDecorator((_d: unknown, ctx: ExecutionContext): string => {
  const header = ctx.switchToHttp().getRequest<Request>().headers.authorization ?? '';
  const parts = header.trim().split(/\s+/);
  return parts.length === 2 && parts[0].toLowerCase() === 'device' ? parts[1] : '';
});
